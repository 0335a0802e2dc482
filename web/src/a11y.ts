// Accessibility fixes the server's HTML cannot make itself.

// focusableScrollers lets the keyboard reach each preformatted block
// under root (a rules page's transcripts and diagrams): one wider than
// the window scrolls sideways, which needs focus to do by keyboard.
export function focusableScrollers(root: ParentNode): void {
  for (const pre of root.querySelectorAll<HTMLElement>("main pre")) {
    if (!pre.hasAttribute("tabindex")) pre.tabIndex = 0;
  }
}
