// The browser client of arbiter serve: the page's body says which page to
// draw (data-page), and the script draws it from the JSON API.

import { analysisPage } from "./analysis";
import { gamePage } from "./game";
import { homePage } from "./home";

const root = document.getElementById("app");
if (root) {
  if (document.body.dataset.page === "game") gamePage(root);
  else if (document.body.dataset.page === "analysis") analysisPage(root);
  else homePage(root);
}
