// Card movement on the table: a played card slides in from its seat, and a finished trick
// gathers toward the seat that took it. Purely cosmetic: the real DOM is already in its
// final state when a movement starts, and the moving copies are aria-hidden and carry no
// card data, so nothing that reads the page ever waits for (or sees) a movement.
import { moveMs } from "./settings.js";

// A played card slides from `from` (a point in viewport pixels) to where it lies now.
export function slideIn(element, from) {
  const ms = moveMs();
  if (!ms || !element.animate) return;
  const box = element.getBoundingClientRect();
  const dx = from.x - (box.left + box.width / 2);
  const dy = from.y - (box.top + box.height / 2);
  element.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0.4 },
    { transform: "none", opacity: 1 }], { duration: ms, easing: "ease-out" });
}

// Copies of a finished trick's cards (`copies`: elements already placed in `layer`) stay a
// moment where they lay, then move together toward `to` and fade; then they are removed.
export function gather(layer, copies, to) {
  const ms = moveMs();
  if (!ms) return;
  for (const copy of copies) {
    layer.append(copy);
    const box = copy.getBoundingClientRect();
    const dx = to.x - (box.left + box.width / 2);
    const dy = to.y - (box.top + box.height / 2);
    const motion = copy.animate([
      { transform: "none", opacity: 1 },
      { transform: "none", opacity: 1, offset: 0.55 },
      { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 },
    ], { duration: ms * 3, easing: "ease-in", fill: "forwards" });
    motion.addEventListener("finish", () => copy.remove());
  }
}

// The centre of an element, in viewport pixels.
export function centreOf(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}
