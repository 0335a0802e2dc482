// The rules pages' folded sections (server/rules.go folds each but the
// overview): a link to a heading or anything inside a section, from the
// contents or another page, opens that section first.

// openLinkedSection opens the section holding the element the address's
// fragment names, and brings that element into view.
function openLinkedSection(doc: Document): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? doc.getElementById(id) : null;
  const section = target?.closest<HTMLDetailsElement>("details.rules-section");
  if (!target || !section) return;
  section.open = true;
  target.scrollIntoView({ block: "start" });
}

export function foldedSections(doc: Document): void {
  openLinkedSection(doc);
  window.addEventListener("hashchange", () => openLinkedSection(doc));
}
