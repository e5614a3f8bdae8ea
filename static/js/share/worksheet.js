// The worksheet page: the server drew both pages; here only the language switch and the
// print button (the print stylesheet puts each sheet on its own page).

import { bindLanguageSwitch, startLanguage } from "../core/language.js";

document.querySelector("#worksheet-print")?.addEventListener("click", () => print());
await startLanguage();
// The sheets' words come from the server: a language switch reloads the page in the other.
bindLanguageSwitch(() => location.reload());
