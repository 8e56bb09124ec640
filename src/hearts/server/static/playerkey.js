// This browser's private player key: there are no accounts, so the key is what ties the games
// played here to one person. It is made on first use (192 random bits, URL-safe text) and kept
// in localStorage. It goes to the server only in request bodies, never in a URL (URLs are kept
// in logs and histories); the server keeps only its SHA-256 digest. Moving to another device is
// exporting the key here (copied text or a small file) and importing it there.
const STORAGE_KEY = "hearts-player-key";
const FILE_FORMAT = "hearts-player-key";
// What the server accepts (hearts.server.player_routes): checked here too, so that a pasted
// key that would be refused is refused at once, with the same words.
const KEY_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;
export const KEY_HELP = "22 to 128 characters: letters, digits, - and _";

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

// The key, made and kept the first time it is asked for.
export function playerKey() {
  let key = localStorage.getItem(STORAGE_KEY);
  if (!key || !KEY_PATTERN.test(key)) {
    key = newKey();
    localStorage.setItem(STORAGE_KEY, key);
  }
  return key;
}

// The exported key as a small JSON file.
export function keyFile() {
  const body = { format: FILE_FORMAT, version: 1, key: playerKey(),
    note: "Your private Card Commons Hearts player key: keep it to yourself." };
  return new Blob([`${JSON.stringify(body, null, 1)}\n`], { type: "application/json" });
}

// Read a key from pasted text or an exported file's text: the key itself, or the file's JSON.
// Throws an Error that says what is wrong; nothing is changed then.
export function readKey(text) {
  let key = text.trim();
  if (key.startsWith("{")) {
    let data;
    try {
      data = JSON.parse(key);
    } catch {
      throw new Error("this file is not a player key file (it is not JSON)");
    }
    if (!data || data.format !== FILE_FORMAT || typeof data.key !== "string") {
      throw new Error("this file is not a player key file (it has no key)");
    }
    key = data.key;
  }
  if (!KEY_PATTERN.test(key)) throw new Error(`a player key is ${KEY_HELP}`);
  return key;
}

// Use `key` from now on in this browser (the one it replaces is forgotten here).
export function useKey(key) {
  localStorage.setItem(STORAGE_KEY, readKey(key));
}
