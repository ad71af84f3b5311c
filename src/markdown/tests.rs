//! Markdown's tests, and the fake shortcodes and numbering other modules'
//! tests render with. Apart because they are a quarter of the module.

use super::*;
use crate::shortcodes::Call;

/// Expands `value(x)` inline and `table()` as a block, for tests of
/// rendering here and in the rule book.
pub(crate) struct Fake;
impl Expand for Fake {
    fn expand(&self, call: &Call) -> Result<Expansion, String> {
        match call.name.as_str() {
            "value" => Ok(Expansion::Inline(format!("<{}>", call.arg("x")?))),
            "table" => Ok(Expansion::Block("<table></table>".into())),
            other => Err(format!("unknown shortcode {other}")),
        }
    }
}

#[test]
fn a_lone_block_renders_as_its_shortcode_alone_would() {
    let out = render("{{ table() }}\n", 1, &Fake).unwrap();
    let lone = lone_block("<table></table>");
    assert_eq!(lone.html, out.html);
    assert_eq!(lone.headings.len(), out.headings.len());
    assert_eq!(lone.links, out.links);
    assert!(out.rules.is_empty() && lone.rules.is_empty());
}

#[test]
fn shortcodes_headings_and_links() {
    let body = "# Fair dice\n\nIt is {{ value(x=\"a&b\") }} fair.\n\n{{ table() }}\n\n## Fair dice\n\nSee [rules](rules/_index.md#ties) and [x](https://e.org).\n";
    let out = render(body, 5, &Fake).unwrap();
    assert!(
        out.html.contains("It is &lt;a&amp;b&gt; fair."),
        "{}",
        out.html
    );
    assert!(out.html.contains("\n<table></table>"), "{}", out.html);
    assert!(!out.html.contains("<p><table>"), "{}", out.html);
    assert!(out
        .html
        .contains("<h1 id=\"fair-dice\">Fair dice<a class=\"anchor\" href=\"#fair-dice\""));
    assert!(out.html.contains("<h2 id=\"fair-dice-2\">"));
    assert!(out.html.contains("href=\"rules/index.html#ties\""));
    assert_eq!(
        out.links,
        vec![Link {
            target: "rules/index.html#ties".into(),
            written: "rules/_index.md#ties".into(),
            line: 13,
            column: 5
        }]
    );
    assert_eq!(out.headings.len(), 2);
}

#[test]
fn shortcode_errors_carry_their_line() {
    let errors = render("a\n\nb {{ nope() }}\n{{ value() }}", 10, &Fake).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert_eq!(
        (errors[0].line, errors[0].message.as_str()),
        (12, "unknown shortcode nope")
    );
    assert_eq!(errors[1].line, 13);
    assert!(errors[1].message.contains("needs the argument x"));
}

#[test]
fn errors_carry_their_column_in_characters() {
    let body = "é {{ nope() }} then [x](javascript:y) and $\\nosuch$\n\n\
                ## Title {#a\"b}\n\nÉtape[^x'y].\n\n[^x'y]: n\n";
    let errors = render(body, 1, &Fake).unwrap_err();
    let places: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(
        places,
        [(1, 3), (1, 21), (1, 43), (3, 12), (5, 8), (7, 3)],
        "{errors:#?}"
    );
    assert!(errors[3]
        .message
        .starts_with("heading id \"a\\\"b\" may only hold"));
    assert!(errors[3]
        .message
        .ends_with("write it as {#a-b} for example"));
    assert!(errors[4].message.starts_with("footnote label"));
}

#[test]
fn code_blocks_are_reachable_by_keyboard_and_keep_their_text_escaped() {
    let body = "```yaml \"onclick=x\n<b>&\n```\n\n    indented\n";
    let out = render(body, 1, &Fake).unwrap();
    assert!(
        out.html.contains(
            "<pre><code tabindex=\"0\" class=\"language-yaml\">&lt;b&gt;&amp;\n</code></pre>"
        ),
        "{}",
        out.html
    );
    assert!(
        out.html
            .contains("<pre><code tabindex=\"0\">indented\n</code></pre>"),
        "{}",
        out.html
    );
}

#[test]
fn marks_are_known_by_their_place_not_their_character() {
    let body = "\u{E000}0\u{E001} {{ value(x=\"v\") }} \u{E000}\n\n`\u{E000}` {{ table() }}\n";
    let out = render(body, 1, &Fake).unwrap();
    assert!(
        out.html
            .contains("<p>\u{E000}0\u{E001} &lt;v&gt; \u{E000}</p>"),
        "{}",
        out.html
    );
    assert!(
        out.html
            .contains("<p><code>\u{E000}</code> </p>\n<table></table>\n"),
        "{}",
        out.html
    );
}

#[test]
fn shortcodes_in_headings_tables_and_quotes_expand() {
    let body = "## Value {{ value(x=\"1\") }}\n\n| a |\n|---|\n| {{ value(x=\"2\") }} |\n\n\
                > {{ value(x=\"3\") }}\n\n- {{ table() }}\n\n<div>{{ value(x=\"4\") }}</div>\n\n\
                a\\*{{ value(x=\"5\") }}&amp;{{ value(x=\"6\") }}  \nnext\n\nSetext {{ value(x=\"7\") }}\n---\n";
    let out = render(body, 1, &Fake).unwrap();
    assert_eq!(out.headings[0].text, "Value <1>");
    assert_eq!(out.headings[0].id, "value-1");
    for expected in [
        "<td>&lt;2&gt;</td>",
        "<p>&lt;3&gt;</p>",
        "<li><table></table>\n</li>",
        "&lt;div&gt;&lt;4&gt;&lt;/div&gt;",
        "<p>a*&lt;5&gt;&amp;&lt;6&gt;<br />",
        "<h2 id=\"setext-7\">Setext &lt;7&gt;",
    ] {
        assert!(out.html.contains(expected), "{expected}: {}", out.html);
    }
    let errors = render("[a]({{ value(x=\"1\") }})\n", 1, &Fake).unwrap_err();
    assert_eq!((errors[0].line, errors[0].column), (1, 5));
    assert!(
        errors[0].message.contains("cannot stand here"),
        "{errors:?}"
    );
}

#[test]
fn math_is_not_searched_for_shortcodes() {
    let body = "$x^{{2}}$ and $$\n{{a} \\over {b}}\n$$ and {{ value(x=\"1\") }}\n";
    let out = render(body, 1, &Fake).unwrap();
    assert!(out.html.contains("x^{{2}}</annotation>"), "{}", out.html);
    assert!(out.html.contains("<mfrac>"), "{}", out.html);
    assert!(out.html.contains("&lt;1&gt;"), "{}", out.html);
}

#[test]
fn math_becomes_mathml_and_money_stays_text() {
    let body = "Fair when $P(v) = \\frac{1}{n}$.\n\n$$\nt \\mod n\n$$\n\nCosts \\$5 or \\$10.\n";
    let out = render(body, 1, &Fake).unwrap();
    assert!(out.html.contains("<math"), "{}", out.html);
    assert!(out.html.contains("<mfrac>"), "{}", out.html);
    assert!(out.html.contains("display=\"block\""), "{}", out.html);
    assert!(out.html.contains("Costs $5 or $10."), "{}", out.html);
    assert!(!out.html.contains("mtext mathcolor"), "{}", out.html);
}

#[test]
fn a_formula_that_does_not_parse_fails_with_its_line() {
    let errors = render("Intro.\n\nBad: $x \\nosuch y$ here.\n", 4, &Fake).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 6);
    assert!(
        errors[0].message.contains("does not parse"),
        "{}",
        errors[0].message
    );
}

#[test]
fn formulas_markdown_does_not_take_fail_with_file_line_and_column() {
    for (body, place, says) in [
        (
            "Intro.\n\nA $\\frac{1}{6}}$ die.\n",
            (6, 3),
            "braces balanced",
        ),
        (
            "Intro.\n\n$$\nx^2\n\nmore\n",
            (6, 1),
            "`$$` formula that is never closed",
        ),
        ("x\n\n- a $x + {y$ in a list\n", (6, 5), "does not parse"),
    ] {
        let errors = render(body, 4, &Fake).unwrap_err();
        assert_eq!(
            errors.len(),
            1,
            "{body:?}: one error per formula: {errors:?}"
        );
        assert_eq!((errors[0].line, errors[0].column), place, "{body:?}");
        assert!(errors[0].message.contains(says), "{errors:?}");
        assert!(
            errors[0].message.contains("`\\$`"),
            "says how to write money"
        );
    }
    // Money, dollars in code, and a formula that parses stay as they were.
    let fine = "Costs \\$5.\n\n`$HOME` and\n\n```\necho $PATH\n```\n\n$x$\n";
    let out = render(fine, 1, &Fake).unwrap();
    assert!(out.html.contains("Costs $5."), "{}", out.html);
    assert!(out.html.contains("echo $PATH"), "{}", out.html);
}

#[test]
fn markdown_tables_scroll_in_their_own_box_and_align_by_class() {
    let out = render("| a | n |\n|:--|--:|\n| x | 1 |\n", 1, &Fake).unwrap();
    assert!(
        out.html
            .starts_with("<section class=\"md-table\" tabindex=\"0\">\n<table>"),
        "{}",
        out.html
    );
    assert!(
        out.html
            .contains("<th class=\"align-left\">a</th><th class=\"align-right\">n</th>"),
        "{}",
        out.html
    );
    assert!(
        out.html.contains("<td class=\"align-right\">1</td>"),
        "{}",
        out.html
    );
    assert!(
        out.html.trim_end().ends_with("</table>\n</section>"),
        "{}",
        out.html
    );
    assert!(!out.html.contains("style="), "{}", out.html);
}

#[test]
fn a_block_shortcode_in_a_line_of_text_is_lifted_out_of_the_paragraph() {
    let out = render("Before {{ table() }} after.\n", 1, &Fake).unwrap();
    assert_eq!(
        out.html,
        "<p>Before </p>\n<table></table>\n<p> after.</p>\n"
    );
    let out = render(
        "{{ table() }} after.\n\nAlone:\n\n{{ table() }}\n",
        1,
        &Fake,
    )
    .unwrap();
    assert_eq!(
        out.html,
        "<table></table>\n<p> after.</p>\n<p>Alone:</p>\n<table></table>\n"
    );
    let out = render("- item {{ table() }}\n\n> quote {{ table() }}\n", 1, &Fake).unwrap();
    assert!(!out.html.contains("<p><table>"), "{}", out.html);
    assert!(!out.html.contains("<p>\n<table>"), "{}", out.html);
    // Inside emphasis, a link or a heading it cannot be lifted whole.
    for (body, column) in [
        ("*see {{ table() }}*\n", 6),
        ("[see {{ table() }}](x.md)\n", 6),
        ("## Head {{ table() }}\n", 9),
    ] {
        let errors = render(body, 1, &Fake).unwrap_err();
        assert_eq!((errors[0].line, errors[0].column), (1, column), "{body}");
        assert!(
            errors[0].message.contains("on a line of its own"),
            "{errors:?}"
        );
    }
}

#[test]
fn alert_quotes_become_callouts() {
    let body = "> [!WARNING]\n> Do not reroll.\n\n> plain quote\n";
    let out = render(body, 1, &Fake).unwrap();
    assert!(
        out.html
            .contains("<aside class=\"callout warning\" role=\"note\" aria-label=\"Warning\">"),
        "{}",
        out.html
    );
    assert!(
        out.html.contains("<p>Do not reroll.</p>\n</aside>"),
        "{}",
        out.html
    );
    assert!(
        out.html.contains("<blockquote>\n<p>plain quote</p>"),
        "{}",
        out.html
    );
}

#[test]
fn raw_html_is_text_and_links_are_limited() {
    let out = render(
        "<script>alert(1)</script>\n\nHi <b onclick=\"x()\">there</b>, press <kbd>/</kbd>.\n",
        1,
        &Fake,
    )
    .unwrap();
    assert!(!out.html.contains("<script>"), "{}", out.html);
    assert!(
        out.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{}",
        out.html
    );
    assert!(
        out.html
            .contains("&lt;b onclick=\"x()\"&gt;there&lt;/b&gt;"),
        "{}",
        out.html
    );
    assert!(out.html.contains("<kbd>/</kbd>"), "{}", out.html);
    for bad in [
        "[x](javascript:alert(1))",
        "[x](JavaScript:alert(1))",
        "![i](data:image/png;base64,AA)",
        "[f](file:///etc/passwd)",
    ] {
        let errors = render(&format!("text\n\n{bad}\n"), 1, &Fake).unwrap_err();
        assert_eq!(errors[0].line, 3, "{bad}");
        assert!(
            errors[0].message.contains("only http, https and mailto"),
            "{bad}"
        );
    }
    assert!(render(
        "[a](https://e.org) [b](mailto:x@e.org) [c](#here)\n",
        1,
        &Fake
    )
    .is_ok());
}
