// The move and square notation the page displays and reads back from the server's
// replies (positions themselves are read and written by the server: /api/board).

export const START = "npppn/p3p/5/P3P/NPPPN 00 0 1";

export const FILES = "abcde";

export function squareName(sq) { return FILES[sq % 5] + (Math.floor(sq / 5) + 1); }

export function squareIndex(name) { return (Number(name[1]) - 1) * 5 + FILES.indexOf(name[0]); }

export function sideOf(piece) { return piece === piece.toUpperCase() ? "white" : "black"; }

export function pieceName(piece) {
  return (sideOf(piece) === "white" ? "White " : "Black ") +
    (piece.toLowerCase() === "p" ? "footman" : "horseman");
}

export function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

export function parseMove(text) {
  if (text === "0000") return null;
  const [main, redeploy] = text.split("@");
  return {
    from: squareIndex(main.slice(0, 2)),
    to: squareIndex(main.slice(2, 4)),
    redeploy: redeploy ? squareIndex(redeploy) : null,
  };
}

export function moveText(m) {
  return squareName(m.from) + squareName(m.to) + (m.redeploy !== null ? "@" + squareName(m.redeploy) : "");
}
