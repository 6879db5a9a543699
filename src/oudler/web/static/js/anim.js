// The cards move: dealt into the hand, played from a seat to the centre, gathered to the trick's
// winner. Web Animations only, never in the way: the page is drawn at once and the movement plays
// over it, so nothing waits for an animation. With prefers-reduced-motion nothing moves.

const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function motionAllowed() {
  return !(reduce && reduce.matches);
}

// For tests and tools: the page says whether it animates.
function mark() {
  document.documentElement.dataset.motion = motionAllowed() ? "full" : "reduced";
}
mark();
if (reduce && reduce.addEventListener) reduce.addEventListener("change", mark);

let speed = 1; // 1 at a normal pace; shorter at "fast" and "instant"

export function setPace(paceMs) {
  speed = paceMs >= 700 ? 1 : paceMs > 0 ? 0.7 : 0.45;
}

const centreOf = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

// A card just drawn in `node` flies in from the element `from` (a seat, or the card the person
// clicked, given as a rectangle).
export function flyIn(node, from, { duration = 320, delay = 0 } = {}) {
  if (!motionAllowed() || !node || !from || !node.animate) return;
  const a = centreOf(from.getBoundingClientRect ? from.getBoundingClientRect() : from);
  const b = centreOf(node.getBoundingClientRect());
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  if (Math.abs(dx) + Math.abs(dy) < 2) return;
  node.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.75)`, opacity: 0.4 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ],
    { duration: duration * speed, delay: delay * speed, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

// The cards of a gathered trick slide to the winner's seat and fade, on copies laid over the page
// (the table underneath is already drawn without them).
export function gatherTo(cards, target) {
  if (!motionAllowed() || !target || !cards.length) return;
  const to = centreOf(target.getBoundingClientRect());
  for (const card of cards) {
    const r = card.getBoundingClientRect();
    if (!r.width) continue;
    const ghost = card.cloneNode(true);
    ghost.classList.add("ghost");
    ghost.removeAttribute("data-show");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`, margin: "0", zIndex: "15", pointerEvents: "none" });
    document.body.append(ghost);
    const from = centreOf(r);
    const anim = ghost.animate(
      [
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(0.4)`, opacity: 0 },
      ],
      { duration: 420 * speed, easing: "ease-in" },
    );
    anim.onfinish = () => ghost.remove();
    anim.oncancel = () => ghost.remove();
  }
}

// A new hand is dealt: its cards come from the centre of the table, one after another.
export function deal(cards, from) {
  if (!motionAllowed() || !from) return;
  cards.forEach((card, i) => flyIn(card, from, { duration: 260, delay: i * 35 }));
}
