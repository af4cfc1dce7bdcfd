/** Where the theme switch keeps its choice ("light" or "dark"; absent: the system's setting). */
export const THEME_STORAGE_KEY = "switchboard.theme";

/** Run before the first paint: the switch's choice as data-theme on <html>, so a dark page never flashes light. */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;
