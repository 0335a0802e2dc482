// An in-page confirmation, in place of the browser's plain confirm(): a
// modal dialog in the page's style, which the keyboard works as any
// dialog (the focus starts on the safe answer and stays inside; Escape
// cancels; the focus goes back where it was when the dialog closes).

import { h } from "./dom";
import { t } from "./i18n";

// confirmInPage asks question, with yes naming the action ("Resign") and
// a Cancel beside it, and resolves true when the player chose yes.
export function confirmInPage(question: string, yes: string): Promise<boolean> {
  const ok = h("button", { type: "button", class: "confirm-yes danger" }, yes);
  const cancel = h("button", { type: "button", class: "confirm-no" }, t("confirm.cancel"));
  const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-question" },
    h("p", { id: "confirm-question" }, question), h("p", { class: "confirm-buttons" }, cancel, ok));
  ok.addEventListener("click", () => dialog.close("yes"));
  cancel.addEventListener("click", () => dialog.close("no"));
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "yes");
      dialog.remove();
    });
  });
}
