//! The race's exact results, typed as the contract spells them, and the
//! analysis that fills them: matchups, solo times and the optimizer's
//! findings, every list written as its totals.

use super::game::GameOdds;
use super::greedy::Step;
use super::lists::{Counts, Totals};
use super::search::{exact_margins, optimise, MixedLists, Optimum, Rated};
use super::{residues, solo, Params};
// The dice and the totals of one roll, spelled as `sum-mod` spells them.
use crate::analyses::pool::{IdenticalDice, Total};
use crate::engine::{ratio, text, Exact};
use crate::progress::Progress;
use num_bigint::BigUint;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Solo distributions run until this share of games has ended.
const SOLO_COVERAGE: f64 = 0.999;

/// Longest solo distribution computed, in rolls.
const SOLO_MAX_ROLLS: usize = 400;

/// A list as its totals, ascending.
pub(crate) type List = Vec<u64>;

/// Everything a race scenario asks for, exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// The dice rolled each turn.
    pub dice: IdenticalDice,
    /// How many totals each player picks.
    pub picks: u64,
    /// Ways and probability of each total of one roll.
    pub sums: Vec<Total>,
    /// The scenario's head-to-head games, in the order given.
    pub matchups: Vec<Matchup>,
    /// Every list named or reported, alone; first mention first.
    pub solo: Vec<Solo>,
    /// The search for the strongest lists, when asked for.
    pub optimizer: Option<Optimizer>,
}

/// One head-to-head game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Matchup {
    /// List A.
    pub a: List,
    /// List B.
    pub b: List,
    /// A empties its list strictly first.
    #[serde(with = "text")]
    pub p_a_wins: Exact,
    /// B empties its list strictly first.
    #[serde(with = "text")]
    pub p_b_wins: Exact,
    /// Both lists empty on the same roll.
    #[serde(with = "text")]
    pub p_tie: Exact,
    /// Rolls until the game ends, misses included.
    #[serde(with = "text")]
    pub expected_rolls: Exact,
}

/// One list played alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solo {
    /// The list.
    pub list: List,
    /// Expected rolls to cross off the whole list.
    #[serde(with = "text")]
    pub expected_rolls: Exact,
    /// The fewest rolls that finish at least half of all games; `None`
    /// beyond the longest distribution computed.
    pub median_rolls: Option<u64>,
}

/// What the search over every list found, every claim proved exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Optimizer {
    /// How many lists exist.
    pub lists: usize,
    /// Rows of the margin table the search had to compute.
    pub rows_evaluated: usize,
    /// Games played in exact arithmetic to prove the answer.
    pub exact_games: usize,
    /// Where the seed's greedy search ends.
    pub greedy: GreedyList,
    /// Lists no other list beats (worst margin 0).
    pub unbeaten: Vec<RatedList>,
    /// Lists with the largest worst margin.
    pub maximin: Vec<RatedList>,
    /// The lists quickest to finish alone.
    pub fastest_solo: FastestSolo,
    /// A non-transitive triple among the strongest lists, if one exists.
    pub cycle: Option<Cycle>,
    /// The first maximin list and the lists that come closest to beating it.
    pub strongest: Vec<List>,
    /// The optimal mix of lists, when no list is unbeaten.
    pub mixed: Option<Mix>,
}

/// The greedy search's list and how it fares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GreedyList {
    /// The list it ends at.
    pub list: List,
    /// Every comparison, in order.
    pub steps: Vec<Step>,
    /// Its smallest margin over every other list.
    #[serde(with = "text")]
    pub min_margin: Exact,
    /// The other list that holds it to that margin (the first in list
    /// order on ties).
    pub closest_rival: List,
    /// Whether no list beats it.
    pub is_unbeaten: bool,
    /// Whether it is among the maximin lists.
    pub(crate) is_maximin: bool,
    /// Its game against the first maximin list.
    pub against_maximin: Matchup,
}

/// A list with its worst margin over every opponent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatedList {
    /// The list.
    pub list: List,
    /// min over every other list of P(win) - P(lose): positive when it
    /// beats every other list, 0 when one (such as its mirror image) holds
    /// it to an even game.
    #[serde(with = "text")]
    pub min_margin: Exact,
    /// The other list that achieves `min_margin` (the first in list order
    /// on ties).
    pub closest_rival: List,
}

/// The lists with the fewest expected solo rolls and how they fare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FastestSolo {
    /// The lists, in list order.
    pub lists: Vec<List>,
    /// Their expected solo rolls.
    #[serde(with = "text")]
    pub expected_rolls: Exact,
    /// Whether one of them is unbeaten.
    pub is_unbeaten: bool,
    /// Whether one of them is maximin.
    pub(crate) is_maximin: bool,
    /// The first one's game against the first maximin list.
    pub against_maximin: Matchup,
}

/// A non-transitive triple: each list beats the next, the last the first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cycle {
    /// The three lists.
    pub lists: Vec<List>,
    /// `margin(lists[i], lists[(i + 1) % 3])`, all positive.
    #[serde(with = "text")]
    pub margins: Vec<Exact>,
}

/// An optimal random choice of lists, with its exact certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    /// The lists played with positive weight.
    pub support: Vec<List>,
    /// Their weights, summing to 1.
    #[serde(with = "text")]
    pub weights: Vec<Exact>,
    /// The value of the restricted game (0: the game is symmetric).
    #[serde(with = "text")]
    pub value: Exact,
    /// The mix's worst expected margin over every list: at least 0.
    #[serde(with = "text")]
    pub worst_margin: Exact,
}

/// Compute everything a race scenario asks for.
pub(super) fn analyse(params: &Params, progress: &Progress) -> Results {
    let totals = params.totals();
    let matchups: Vec<(Counts, Counts, GameOdds<Exact>)> = params
        .matchups
        .par_iter()
        .map(|(a, b)| {
            let (a, b) = (totals.counts(a), totals.counts(b));
            let odds = residues::game(&totals, &a, &b);
            (a, b, odds)
        })
        .collect();
    let optimum = params
        .optimize
        .then(|| optimise(&totals, params.picks, progress));
    let lists = solo_lists(&matchups, optimum.as_ref());
    let solo = lists
        .par_iter()
        .zip(solo_finished(&totals, &lists))
        .map(|(list, finished)| Solo {
            list: totals.sums(list),
            expected_rolls: residues::solo_rolls(&totals, list),
            median_rolls: median(&totals, &finished),
        })
        .collect();
    Results {
        dice: params.dice,
        picks: params.picks,
        sums: sums(&totals),
        matchups: matchups
            .iter()
            .map(|(a, b, odds)| Matchup::of(&totals, a, b, odds))
            .collect(),
        solo,
        optimizer: optimum.as_ref().map(|o| Optimizer::of(&totals, o)),
    }
}

/// Everything a race computes: the published results, and the exact figures
/// only the page shows. Both are cached; only `results` is the JSON contract
/// (see `Race::contract`), so the published JSON stays as users know it
/// while layout stays formatting only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysed {
    /// The JSON contract.
    pub results: Results,
    /// The page's extra figures.
    pub page: PageFigures,
}

/// Exact figures the page shows that the results contract has never
/// carried (adding them would change the published JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageFigures {
    /// For each list of `solo`, in order, P(finished alone within n rolls)
    /// for n = 0, 1, ...: every list to the same horizon.
    #[serde(with = "text")]
    pub solo_within: Vec<Vec<Exact>>,
    /// Exact margins among the optimizer's strongest lists, row against
    /// column (empty without the optimizer).
    #[serde(with = "text")]
    pub strongest_margins: Vec<Vec<Exact>>,
}

/// The page's figures for these results (see [`PageFigures`]).
pub fn page_figures(params: &Params, results: &Results) -> PageFigures {
    let totals = params.totals();
    let solo: Vec<Counts> = results
        .solo
        .iter()
        .map(|s| totals.counts(&s.list))
        .collect();
    let solo_within = solo_finished(&totals, &solo)
        .par_iter()
        .map(|finished| within(&totals, finished))
        .collect();
    let strongest_margins = results.optimizer.as_ref().map_or_else(Vec::new, |o| {
        let strongest: Vec<Counts> = o.strongest.iter().map(|l| totals.counts(l)).collect();
        exact_margins(&totals, &strongest)
    });
    PageFigures {
        solo_within,
        strongest_margins,
    }
}

fn sums(totals: &Totals) -> Vec<Total> {
    let all = BigUint::from(totals.outcomes);
    (0..totals.kinds())
        .map(|i| {
            let ways = BigUint::from(totals.ways[i]);
            Total {
                total: totals.total(i),
                probability: ratio(&ways, &all),
                ways,
            }
        })
        .collect()
}

impl Matchup {
    fn of(totals: &Totals, a: &[u8], b: &[u8], odds: &GameOdds<Exact>) -> Matchup {
        Matchup {
            a: totals.sums(a),
            b: totals.sums(b),
            p_a_wins: odds.a_wins.clone(),
            p_b_wins: odds.b_wins.clone(),
            p_tie: odds.tie.clone(),
            expected_rolls: odds.expected_rolls.clone(),
        }
    }
}

impl RatedList {
    fn of(totals: &Totals, rated: &Rated) -> RatedList {
        RatedList {
            list: totals.sums(&rated.list),
            min_margin: rated.min_margin.clone(),
            closest_rival: totals.sums(&rated.closest_rival),
        }
    }
}

impl Mix {
    fn of(totals: &Totals, mixed: &MixedLists) -> Mix {
        Mix {
            support: mixed.support.iter().map(|l| totals.sums(l)).collect(),
            weights: mixed.mix.weights.clone(),
            value: mixed.mix.value.clone(),
            worst_margin: mixed.mix.worst_margin.clone(),
        }
    }
}

impl Optimizer {
    fn of(totals: &Totals, o: &Optimum) -> Optimizer {
        let leader = &o.maximin[0].list;
        let is_unbeaten = |l: &Counts| o.unbeaten.iter().any(|r| &r.list == l);
        let is_maximin = |l: &Counts| o.maximin.iter().any(|r| &r.list == l);
        let against_leader =
            |l: &Counts| Matchup::of(totals, l, leader, &residues::game(totals, l, leader));
        let sums =
            |lists: &[Counts]| -> Vec<List> { lists.iter().map(|l| totals.sums(l)).collect() };
        let rated = |lists: &[Rated]| -> Vec<RatedList> {
            lists.iter().map(|r| RatedList::of(totals, r)).collect()
        };
        Optimizer {
            lists: o.lists,
            rows_evaluated: o.rows_evaluated,
            exact_games: o.exact_games,
            greedy: GreedyList {
                list: totals.sums(&o.greedy.list),
                steps: o.greedy.steps.clone(),
                min_margin: o.greedy_rated.min_margin.clone(),
                closest_rival: totals.sums(&o.greedy_rated.closest_rival),
                is_unbeaten: is_unbeaten(&o.greedy.list),
                is_maximin: is_maximin(&o.greedy.list),
                against_maximin: against_leader(&o.greedy.list),
            },
            unbeaten: rated(&o.unbeaten),
            maximin: rated(&o.maximin),
            fastest_solo: FastestSolo {
                lists: sums(&o.fastest),
                expected_rolls: o.fastest_rolls.clone(),
                is_unbeaten: o.fastest.iter().any(is_unbeaten),
                is_maximin: o.fastest.iter().any(is_maximin),
                against_maximin: against_leader(&o.fastest[0]),
            },
            cycle: o.cycle.as_ref().map(|c| Cycle {
                lists: sums(&c.lists),
                margins: c.margins.to_vec(),
            }),
            strongest: sums(&o.strongest),
            mixed: o.mixed.as_ref().map(|m| Mix::of(totals, m)),
        }
    }
}

/// Every list the scenario names or the optimizer reports, first mention first.
fn solo_lists(
    matchups: &[(Counts, Counts, GameOdds<Exact>)],
    optimum: Option<&Optimum>,
) -> Vec<Counts> {
    let mut lists: Vec<Counts> = matchups
        .iter()
        .flat_map(|(a, b, _)| [a.clone(), b.clone()])
        .collect();
    if let Some(o) = optimum {
        lists.push(o.greedy.list.clone());
        lists.extend(o.unbeaten.iter().chain(&o.maximin).map(|r| r.list.clone()));
        lists.extend(o.fastest.iter().cloned());
        if let Some(c) = &o.cycle {
            lists.extend(c.lists.iter().cloned());
        }
        if let Some(m) = &o.mixed {
            lists.extend(m.support.iter().cloned());
        }
    }
    let mut seen = Vec::new();
    lists.retain(|l| {
        let new = !seen.contains(l);
        if new {
            seen.push(l.clone());
        }
        new
    });
    lists
}

/// For each list, `finished[n]`: the sequences of n rolls that have
/// emptied it. Each list runs until most of its sequences finish, then
/// every list on to the slowest one's horizon, so they share one axis.
fn solo_finished(totals: &Totals, lists: &[Counts]) -> Vec<Vec<BigUint>> {
    let mut runs: Vec<(solo::Finishing, Vec<BigUint>)> = lists
        .par_iter()
        .map(|list| solo::finished_by(totals, list, SOLO_COVERAGE, SOLO_MAX_ROLLS))
        .collect();
    let horizon = runs.iter().map(|(_, f)| f.len() - 1).max().unwrap_or(0);
    runs.par_iter_mut()
        .for_each(|(finishing, finished)| finishing.extend(finished, f64::INFINITY, horizon));
    runs.into_iter().map(|(_, finished)| finished).collect()
}

/// P(done within n rolls) for each n of `finished`.
fn within(totals: &Totals, finished: &[BigUint]) -> Vec<Exact> {
    let mut all = BigUint::from(1u32);
    finished
        .iter()
        .map(|done| {
            let p = ratio(done, &all);
            all *= totals.outcomes;
            p
        })
        .collect()
}

/// The fewest rolls that finish at least half of all games.
fn median(totals: &Totals, finished: &[BigUint]) -> Option<u64> {
    (0..finished.len())
        .find(|&n| &finished[n] * 2u32 >= BigUint::from(totals.outcomes).pow(n as u32))
        .map(|n| n as u64)
}

#[cfg(test)]
mod tests {
    use super::super::{Race, Results};
    use super::*;
    use crate::analyses::Analysis;
    use num_traits::Signed;
    use serde_json::{json, Value};

    fn analysed(yaml: &str) -> (Params, Results) {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        Race::validate(&params).unwrap();
        let results = Race::analyse(&params, &Progress::hidden()).results;
        (params, results)
    }

    fn contract(yaml: &str) -> Value {
        serde_json::to_value(analysed(yaml).1).unwrap()
    }

    fn exact(value: &Value) -> Exact {
        let text = value.as_str().expect("a fraction");
        let (p, q) = text.split_once('/').expect("p/q");
        Exact::new(p.parse().unwrap(), q.parse().unwrap())
    }

    #[test]
    fn the_seeds_matchup_in_the_contract() {
        let r =
            contract("dice: 2d6\npicks: 5\nmatchups:\n  - [[5, 6, 7, 8, 9], [5, 6, 7, 8, 7]]\n");
        let m = &r["matchups"][0];
        assert_eq!(m["b"], json!([5, 6, 7, 7, 8]), "lists are reported sorted");
        let sum = exact(&m["p_a_wins"]) + exact(&m["p_b_wins"]) + exact(&m["p_tie"]);
        assert_eq!(sum, Exact::from_integer(1.into()));
        // The seed's simulation favoured the five distinct totals.
        assert!(exact(&m["p_a_wins"]) > exact(&m["p_b_wins"]));
        assert_eq!(
            r["sums"][5],
            json!({"total": 7, "ways": "6", "probability": "1/6"})
        );
        assert_eq!(r["solo"].as_array().unwrap().len(), 2);
        assert!(r["optimizer"].is_null());
    }

    #[test]
    fn optimizer_contract_on_a_small_game() {
        let r = contract("dice: 2d6\npicks: 2\noptimize: true\n");
        let o = &r["optimizer"];
        assert_eq!(o["lists"], 66);
        let leader = &o["maximin"][0];
        assert_eq!(
            exact(&leader["min_margin"]),
            exact(&o["unbeaten"][0]["min_margin"])
        );
        assert_eq!(o["fastest_solo"]["lists"], json!([[6, 7], [7, 8]]));
        // Every reported list has its solo time.
        let solo: Vec<&Value> = r["solo"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["list"])
            .collect();
        assert!(solo.contains(&&o["greedy"]["list"]));
        assert!(solo.contains(&&leader["list"]));
        assert!(o["mixed"].is_null(), "an unbeaten list needs no mix");
    }

    #[test]
    fn mixed_contract_when_no_list_is_unbeaten() {
        let r = contract("dice: 3d2\npicks: 6\noptimize: true\n");
        let o = &r["optimizer"];
        assert_eq!(o["unbeaten"], json!([]));
        let mixed = &o["mixed"];
        let weights: Vec<Exact> = mixed["weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(exact)
            .collect();
        assert_eq!(weights.len(), mixed["support"].as_array().unwrap().len());
        assert_eq!(weights.iter().sum::<Exact>(), Exact::from_integer(1.into()));
        assert_eq!(mixed["value"], "0/1");
        assert!(!exact(&mixed["worst_margin"]).is_negative());
    }

    #[test]
    fn results_read_back_as_written() {
        for yaml in [
            "dice: 2d6\npicks: 3\nmatchups: [[[6, 7, 8], [7, 7, 7]]]\noptimize: true\n",
            "dice: 3d2\npicks: 6\noptimize: true\n",
        ] {
            let (_, results) = analysed(yaml);
            let json = serde_json::to_value(&results).unwrap();
            assert_eq!(serde_json::from_value::<Results>(json).unwrap(), results);
        }
    }

    #[test]
    fn page_figures_agree_with_the_results() {
        let (params, results) = analysed("dice: 2d6\npicks: 2\noptimize: true\n");
        let figures = page_figures(&params, &results);
        assert_eq!(figures.solo_within.len(), results.solo.len());
        let horizon = figures.solo_within[0].len();
        for (within, solo) in figures.solo_within.iter().zip(&results.solo) {
            assert_eq!(within.len(), horizon, "one horizon for every list");
            let half = Exact::new(1.into(), 2.into());
            let median = within.iter().position(|p| *p >= half).map(|n| n as u64);
            assert_eq!(median, solo.median_rolls);
        }
        let o = results.optimizer.as_ref().unwrap();
        assert_eq!(figures.strongest_margins.len(), o.strongest.len());
        if let Some(cycle) = &o.cycle {
            let at = |l: &List| o.strongest.iter().position(|s| s == l).unwrap();
            let (i, j) = (at(&cycle.lists[0]), at(&cycle.lists[1]));
            assert_eq!(figures.strongest_margins[i][j], cycle.margins[0]);
        }
    }
}
