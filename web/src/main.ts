// The browser client of arbiter serve: the page's body says which page to
// draw (data-page), and the script draws it from the JSON API. The rules
// pages are served whole; the script only draws their diagrams.

import { focusableScrollers } from "./a11y";
import { accountPage } from "./account";
import { analysisPage } from "./analysis";
import { authPage } from "./auth";
import { decorateHeader } from "./chrome";
import { drawDiagrams } from "./diagrams";
import { gamePage } from "./game";
import { homePage } from "./home";
import { leaderboardPage } from "./leaderboard";
import { forgotPage, resetPage, unsubscribePage, verifyPage } from "./notices";
import { profilePage } from "./profile";
import { foldedSections } from "./rules";
import { applyTheme } from "./theme";
import { tvPage } from "./tv";

applyTheme();
const page = document.body.dataset.page;
const root = document.getElementById("app");
if (page === "rules") {
  decorateHeader(document);
  focusableScrollers(document);
  foldedSections(document);
  void drawDiagrams(document);
}
else if (root) {
  if (page === "game") gamePage(root);
  else if (page === "analysis") analysisPage(root);
  else if (page === "puzzles") void import("./puzzle").then((m) => m.puzzlesPage(root));
  else if (page === "learn") void import("./learn").then((m) => m.learnPage(root));
  else if (page === "signup" || page === "login") authPage(root, page === "signup");
  else if (page === "account") void accountPage(root);
  else if (page === "forgot") forgotPage(root);
  else if (page === "reset") resetPage(root);
  else if (page === "verify") verifyPage(root);
  else if (page === "unsubscribe") unsubscribePage(root);
  else if (page === "profile") void profilePage(root);
  else if (page === "leaderboard") void leaderboardPage(root);
  else if (page === "tv") tvPage(root);
  else if (page === "mod") void import("./mod").then((m) => m.modPage(root));
  else homePage(root);
}
