// A question the person answers before something that cannot be undone (starting another game):
// a small modal with two buttons; Escape or the second button says no.

import { el } from "./util.js";

export function confirmBox(text, yes, no) {
  return new Promise((resolve) => {
    const before = document.activeElement;
    const box = el("section", { class: "overlay confirm", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-text", "data-role": "confirm" });
    const done = (answer) => {
      box.remove();
      document.removeEventListener("keydown", onKey, true);
      if (before && before.focus) before.focus({ preventScroll: true });
      resolve(answer);
    };
    const onKey = (e) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        done(false);
      }
    };
    const yesButton = el("button", { type: "button", class: "primary", "data-action": "confirm-yes", onclick: () => done(true) }, yes);
    box.append(
      el(
        "div",
        { class: "panel" },
        el("p", { id: "confirm-text" }, text),
        el("div", { class: "buttons" }, yesButton, el("button", { type: "button", "data-action": "confirm-no", onclick: () => done(false) }, no)),
      ),
    );
    document.addEventListener("keydown", onKey, true);
    document.body.append(box);
    yesButton.focus();
  });
}
