// Copying a link for the person to send on. A browser offers its clipboard only on https
// and localhost pages: on a plain-http page (a table shared on a home network) the link is
// selected instead and the button says how to copy it, rather than nothing happening.

const restoring = new WeakMap();  // each button's timer that puts its label back

export async function copyField(field, button) {
  const label = button.dataset.label || (button.dataset.label = button.textContent);
  clearTimeout(restoring.get(button));
  try {
    if (!navigator.clipboard) throw new Error("no clipboard on this page");
    await navigator.clipboard.writeText(field.value);
    button.textContent = "Copied";
  } catch {
    field.focus();
    field.select();
    button.textContent = "Selected: copy it (Ctrl+C, or touch and hold)";
  }
  restoring.set(button, setTimeout(() => { button.textContent = label; }, 4000));
}
