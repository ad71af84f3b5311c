// Uses a page's interactive elements as a reader does (pointer, keyboard,
// finger) and checks what is then on screen: the computed style and the
// box of what should show or hide, never the markup. For check.mjs.
//
// - glossary marks (the first, the last, and the one nearest the right
//   edge at this width): the definition shows after hover, focus and tap,
//   inside the viewport, and hides after Escape;
// - the theme switch: shown inside the viewport; a click changes the
//   page's colours, a second click brings them back;
// - the menu (phones): the link shows, opens the navigation inside the
//   viewport, and "Close the menu" hides it again; on a wide screen the
//   navigation is always shown and the link is not;
// - what-if forms: shown once their engine is there, inside the viewport
//   sideways, a focused field visible.

/// What is on screen of the element `selector` picks (the `index`th):
/// whether a reader can see it and whether its box is inside the viewport.
function seen([selector, index]) {
  const element = document.querySelectorAll(selector)[index];
  if (!element) return { missing: true };
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  let hiddenBy = null;
  for (let e = element; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === "none") { hiddenBy = e.tagName.toLowerCase() + (e.className ? "." + e.className : ""); break; }
  }
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight;
  const visible =
    !hiddenBy && style.visibility === "visible" && parseFloat(style.opacity) > 0 &&
    box.width > 0 && box.height > 0;
  const round = (x) => Math.round(x);
  return {
    visible,
    display: style.display,
    hiddenBy,
    box: [box.left, box.top, box.right, box.bottom].map(round),
    sideways: box.left >= -0.5 && box.right <= width + 0.5,
    inside: box.left >= -0.5 && box.right <= width + 0.5 && box.top >= -0.5 && box.bottom <= height + 0.5,
    viewport: [width, height],
  };
}

/// The glossary marks worth trying at this width: the first, the last,
/// and the one whose word ends nearest the right edge of the page.
function chosenTerms() {
  const words = [...document.querySelectorAll(".term-word")];
  if (!words.length) return [];
  let right = 0;
  words.forEach((w, i) => {
    if (w.getBoundingClientRect().right > words[right].getBoundingClientRect().right) right = i;
  });
  return [...new Set([0, words.length - 1, right])];
}

export async function interact(tab, width) {
  const problems = [];
  const checked = [];
  const look = (selector, index = 0) => tab.evaluate(seen, [selector, index]);
  const expect = (what, state, wanted) => {
    checked.push(what);
    if (state.missing) return problems.push(`${what}: the element is gone`);
    if (wanted === "visible" && !state.visible) {
      problems.push(`${what}: not visible (display ${state.display}, hidden by ${state.hiddenBy}, box ${state.box})`);
    } else if (wanted === "visible" && !state.inside) {
      problems.push(`${what}: box ${state.box} outside the viewport ${state.viewport}`);
    } else if (wanted === "sideways" && !(state.visible && state.sideways)) {
      problems.push(`${what}: box ${state.box} not shown inside the viewport's width ${state.viewport[0]}`);
    } else if (wanted === "hidden" && state.visible) {
      problems.push(`${what}: still visible (display ${state.display}, box ${state.box})`);
    }
  };
  const away = async () => {
    await tab.mouse.move(1, 1);
    await tab.evaluate(() => document.activeElement && document.activeElement.blur());
  };

  // Glossary marks, one way of reaching them at a time, as each reader
  // has one: the pointer, then the keyboard, then a finger. Touches come
  // last: after a tap, headless Chromium may later move :hover back to
  // the tapped mark, under no pointer, once the page has scrolled; a
  // pointer check after it then found another mark hovered than the one
  // under the mouse (elementFromPoint there gave the right mark), and
  // Escape closed that one. No reader moves a mouse after tapping.
  const chosen = await tab.evaluate(chosenTerms);
  const uses = [
    ["hover", (word) => word.hover()],
    ["focus", (word) => word.focus()],
    ["tap", (word) => word.tap()],
  ];
  for (const [how, use] of uses) {
    for (const i of chosen) {
      const words = await tab.$$(".term-word");
      const word = words[i];
      const name = await word.evaluate((w) => w.textContent);
      const what = (after) => `glossary "${name}" (${i + 1} of ${words.length}) after ${after}`;
      await word.evaluate((w) => w.scrollIntoView({ block: "center" }));
      await away();
      if (how === "hover") expect(what("loading"), await look(".term-definition", i), "hidden");
      await use(word);
      expect(what(how), await look(".term-definition", i), "visible");
      await tab.keyboard.press("Escape");
      expect(what(`${how} and Escape`), await look(".term-definition", i), "hidden");
      await away();
    }
  }

  // The theme switch: its box, and the colours it changes and restores.
  if (await tab.$("#theme-toggle")) {
    await tab.evaluate(() => window.scrollTo(0, 0));
    expect("theme switch", await look("#theme-toggle"), "visible");
    const background = () => tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await background();
    await tab.click("#theme-toggle");
    const after = await background();
    checked.push("theme switch colours");
    if (after === before) problems.push(`theme switch: the background stayed ${before}`);
    await tab.click("#theme-toggle");
    if ((await background()) !== before) problems.push("theme switch: a second click did not restore the colours");
    await tab.evaluate(() => {
      localStorage.removeItem("fairdice-theme");
      document.documentElement.removeAttribute("data-theme");
    });
  }

  // The menu: a link on phones, the navigation itself on wide screens.
  if (await tab.$(".menu-link")) {
    await tab.evaluate(() => window.scrollTo(0, 0));
    const link = await look(".menu-link");
    if (link.visible) {
      expect("menu link", link, "visible");
      expect("navigation before the menu opens", await look("#site-nav"), "hidden");
      await tab.click(".menu-link");
      expect("navigation after the menu link", await look("#site-nav"), "sideways");
      await tab.evaluate(() => document.querySelector(".menu-close").scrollIntoView({ block: "center" }));
      expect("close-the-menu link", await look(".menu-close"), "visible");
      await tab.click(".menu-close");
      expect("navigation after closing the menu", await look("#site-nav"), "hidden");
    } else if (width >= 1000) {
      expect("navigation on a wide screen", await look("#site-nav"), "sideways");
    } else {
      problems.push(`menu link hidden at ${width}px (display ${link.display})`);
    }
  }

  // What-if forms, once their engine has shown them.
  const forms = await tab.$$("form.calculator");
  for (const [i, form] of forms.entries()) {
    await tab
      .waitForFunction((f) => !f.hidden, { timeout: 10000 }, form)
      .catch(() => {});
    await form.evaluate((f) => f.scrollIntoView({ block: "start" }));
    expect(`what-if form ${i + 1}`, await look("form.calculator", i), "sideways");
    const field = await form.$("input[type=text]");
    if (field) {
      await field.focus();
      const index = await field.evaluate((f) => [...document.querySelectorAll("form.calculator input[type=text]")].indexOf(f));
      expect(`what-if form ${i + 1}'s first field, focused`, await look("form.calculator input[type=text]", index), "visible");
    }
  }
  await away();
  return { problems, checked };
}
