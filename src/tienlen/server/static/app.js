// The browser client of `tienlen serve`: it shows what the server sends and sends
// what the player clicks. Every rule stays on the server: the Play button is enabled
// only when the selected cards are one of the server's legal actions, and a refusal
// is the server's own text in English or Vietnamese.
"use strict";

const TEXT = {
  en: { connecting: "connecting…", connected: "at the table", play: "Play", pass: "Pass",
    scores: "Scores", next: "Next hand", rematch: "Rematch", sit: "Sit here", you: "you",
    card: "card", cards: "cards", house: "Bot", away: "away", yourTurn: "Your turn",
    hand: "Hand", total: "Total", seat: "Seat", matchOver: "Match over",
    passed: "Pass", lang: "Tiếng Việt", newTable: "New table",
    jumpIn: "You may jump in!", leave: "Leave", history: "This hand", totals: "Match",
    onTop: "on top", results: "Results", showTable: "Show the table",
    order: "Finishing order", points: "Points", handNo: "Hand", clock: (n) => `${n} s left`,
    places: ["1st", "2nd", "3rd"], placeN: (n) => `${n}th`, lastPlace: "last",
    matchEnded: (hands) => `Match over: all ${hands} hands are played.`,
    wins: (names, points) => `${names} won the match with ${points} points.`,
    instantWin: (name, kind) => `${name} won at once with ${kind} (instant win).`,
    item: {
      stake: (w, p, n) => `${p} pays ${w} ${n} (the stake).`,
      place: (w, p, n, place) => `${w} scores ${n} for ${place} place.`,
      chop: (w, p, n, cards) => `${p} pays ${w} ${n}: chopped${cards ? " (" + cards + ")" : ""}.`,
      frozen: (w, p, n) => `${p} was frozen (cóng) and pays ${w} ${n}.`,
      "end-penalty": (w, p, n, cards) => `${p} pays ${w} ${n} for the 2s and bombs left (thối${cards ? ": " + cards : ""}).`,
      "instant-win": (w, p, n) => `${w} scores ${n} for the instant win.` },
    errors: {} }, // the server's own English message
  vi: { connecting: "đang kết nối…", connected: "đã vào bàn", play: "Đánh", pass: "Bỏ lượt",
    scores: "Điểm", next: "Ván mới", rematch: "Chơi lại", sit: "Ngồi đây", you: "bạn",
    card: "lá", cards: "lá", house: "Máy", away: "vắng", yourTurn: "Đến lượt bạn",
    hand: "Ván", total: "Tổng", seat: "Ghế", matchOver: "Hết trận",
    passed: "Bỏ lượt", lang: "English", newTable: "Bàn mới",
    jumpIn: "Bạn có thể chặt ngoài lượt!", leave: "Rời bàn", history: "Ván này",
    totals: "Cả trận", onTop: "đang trên cùng", results: "Kết quả", showTable: "Xem bàn",
    order: "Thứ tự về", points: "Điểm", handNo: "Ván", clock: (n) => `còn ${n} giây`,
    places: ["về nhất", "về nhì", "về ba"], placeN: (n) => `về thứ ${n}`, lastPlace: "về bét",
    matchEnded: (hands) => `Hết trận: đã chơi đủ ${hands} ván.`,
    wins: (names, points) => `${names} thắng trận với ${points} điểm.`,
    instantWin: (name, kind) => `${name} tới trắng (${kind}).`,
    item: {
      stake: (w, p, n) => `${p} trả ${w} ${n} (tiền cược).`,
      place: (w, p, n, place) => `${w} được ${n} điểm vì ${place}.`,
      chop: (w, p, n, cards) => `${p} bị chặt${cards ? " (" + cards + ")" : ""}: trả ${w} ${n}.`,
      frozen: (w, p, n) => `${p} bị cóng: trả ${w} ${n}.`,
      "end-penalty": (w, p, n, cards) => `${p} bị thối${cards ? " " + cards : ""}: trả ${w} ${n}.`,
      "instant-win": (w, p, n) => `${w} được ${n} điểm vì tới trắng.` },
    errors: { // by the server's error code; any other code shows its English message
      stale: "Ván đã sang lượt khác, hãy thử lại.",
      "between-hands": "Đang giữa hai ván.",
      "seat-taken": "Ghế này đã có người ngồi.",
      "rate-limited": "Bạn gửi quá nhanh, hãy chậm lại.",
      "bad-credential": "Không nhận ra ghế của bạn.",
      "no-table": "Không có bàn này.",
      full: "Máy chủ đã đủ bàn, hãy thử lại sau.",
      busy: "Máy chủ đang bận, hãy thử lại sau ít phút.",
      "too-many-tables": "Bạn đã mở quá nhiều bàn.",
      "too-many-bots": "Bạn đã dùng quá nhiều máy mạnh (pimc, ismcts).",
      "bad-name": "Tên này không dùng được." } },
};

const ui = {
  lang: localStorage.getItem("tienlen:lang") || "en",
  tableId: decodeURIComponent(location.hash.replace(/^#/, "")) || "main",
  socket: null, info: null, view: null, you: null,
  selected: new Set(), refusal: null, last: null, ended: null, matchOver: false,
  connected: false,
  actions: 0, // actions seen so far, for anyone following the page (tests, a log)
  ply: 0, // the hand's actions so far: every move names it, so a replayed move is refused
  history: [], // this hand's actions, {seat, action}
  trickStart: 0, // where the current trick starts in history (the server says)
  clockUntil: null, // when the move clock runs out, in performance.now() time
  endHidden: false, // the end-of-hand panel put aside to look at the table
};

const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[ui.lang][key] || key;
const send = (message) => ui.socket.send(JSON.stringify({ v: 1, ...message }));
const stored = () => JSON.parse(localStorage.getItem("tienlen:seat:" + ui.tableId) || "null");

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ui.socket = new WebSocket(`${scheme}//${location.host}/ws`);
  ui.socket.onopen = () => {
    const seat = stored();
    if (seat) send({ type: "hello", table: ui.tableId, seat: seat.seat, token: seat.token });
    else send({ type: "watch", table: ui.tableId });
  };
  ui.socket.onmessage = (event) => receive(JSON.parse(event.data));
  ui.socket.onclose = () => { ui.connected = false; render(); setTimeout(connect, 1000); };
}

function clockFrom(message) {
  ui.clockUntil = message.clockLeft == null ? null : performance.now() + 1000 * message.clockLeft;
}

function receive(message) {
  switch (message.type) {
    case "created":
      location.hash = "#" + encodeURIComponent(message.table); // a new page for it
      return;
    case "joined":
      localStorage.setItem("tienlen:seat:" + ui.tableId,
        JSON.stringify({ seat: message.seat, token: message.token }));
      break;
    case "left":
      localStorage.removeItem("tienlen:seat:" + ui.tableId); // the connection watches now
      ui.you = null; ui.selected.clear();
      break;
    case "gameFull":
      ui.info = message.table; ui.view = message.state; ui.you = message.you; ui.ply = message.ply;
      ui.selected.clear(); ui.refusal = null; ui.ended = message.ended || null;
      ui.matchOver = message.table.matchOver; ui.endHidden = false;
      ui.history = message.history.slice(); ui.trickStart = message.trickStart || 0;
      ui.last = message.history.length ? message.history[message.history.length - 1] : null;
      ui.connected = true; clockFrom(message);
      break;
    case "gameState":
      ui.view = message.state; ui.info.seats = message.seats; ui.ply = message.ply;
      ui.actions += message.actions.length;
      ui.history.push(...message.actions); ui.trickStart = message.trickStart || 0;
      clockFrom(message);
      if (message.actions.length) { ui.last = message.actions[message.actions.length - 1]; ui.refusal = null; }
      for (const code of [...ui.selected]) if (!handCards().includes(code)) ui.selected.delete(code);
      break;
    case "handEnd":
      ui.ended = message; ui.matchOver = message.matchOver; ui.endHidden = false;
      ui.info.totals = message.totals; ui.clockUntil = null;
      ui.info.results = [...(ui.info.results || []), message.result];
      break;
    case "matchEnd":
      ui.matchOver = true;
      break;
    case "checked": // an answer about a selection since changed says nothing now
      ui.refusal = message.legal || !sameCards(message.action, ui.selected) ? null : message.refusal;
      break;
    case "error":
      if (message.code === "bad-credential") {
        localStorage.removeItem("tienlen:seat:" + ui.tableId);
        send({ type: "watch", table: ui.tableId });
      }
      ui.refusal = message.refusal || { message: errorText(message) };
      break;
  }
  render();
}

// An error without the library's refusal: the server's English, and its code's Vietnamese.
const errorText = (message) => ({
  en: message.message, vi: TEXT.vi.errors[message.code] || message.message });

const handCards = () => (ui.view && ui.view.hand ? ui.view.hand.split(" ").filter(Boolean) : []);
const legal = () => (ui.view && ui.view.legal) || [];
const sameCards = (text, codes) => {
  const cards = text.split(" ");
  return cards.length === codes.size && cards.every((c) => codes.has(c));
};
const chosenPlay = () => legal().find((a) => a !== "pass" && sameCards(a, ui.selected));

// Cards as people write them: "Td Jc" is "10♦ J♣".
const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const cardText = (code) => (code[0] === "T" ? "10" : code[0]) + (SUITS[code[1]] || code.slice(1));
const cardsText = (text) => text.split(" ").filter(Boolean).map(cardText).join(" ");
const actionText = (action) => (action === "pass" ? t("passed") : cardsText(action));
const countText = (n) => `${n} ${n === 1 ? t("card") : t("cards")}`;

// Cards as red or black symbols, for a seat's last play and the hand's history.
function cardsLine(action) {
  const span = element("span", "cards-line");
  if (action === "pass") { span.textContent = t("passed"); span.classList.add("pass"); return span; }
  action.split(" ").forEach((code, i) => {
    if (i) span.append(" ");
    span.appendChild(element("span", "dh".includes(code[1]) ? "pip red" : "pip", cardText(code)));
  });
  return span;
}

function seatPositions(players) {
  return { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"],
    5: ["left", "top-left", "top-right", "right"] }[players] ||
    ["left", "top-left", "top", "top-right", "right", "right", "right"];
}

function render() {
  document.documentElement.lang = ui.lang;
  $("lang").textContent = t("lang");
  $("status").textContent = ui.connected ? `${t("connected")} · ${ui.tableId}` : t("connecting");
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  if (!ui.info || !ui.view) return;
  renderSeats(); renderCentre(); renderHand(); renderHistory(); renderTotals(); renderScores();
}

// The current trick's actions: each seat's latest is shown in front of it.
const trick = () => ui.history.slice(ui.trickStart);
function lastOf(seat) {
  const mine = trick().filter((a) => a.seat === seat);
  return mine.length ? mine[mine.length - 1].action : null;
}

function clockText() {
  if (ui.clockUntil === null || ui.ended) return "";
  const left = Math.max(0, Math.ceil((ui.clockUntil - performance.now()) / 1000));
  return TEXT[ui.lang].clock(left);
}

function renderSeats() {
  const box = $("seats"); box.replaceChildren();
  const n = ui.info.players, me = ui.you ?? 0, places = seatPositions(n);
  for (const seat of ui.info.seats) {
    const div = document.createElement("div");
    const offset = (seat.seat - me + n) % n;
    if (ui.you !== null && offset === 0) continue;
    div.className = "seat pos-" + (ui.you === null && offset === 0 ? "bottom" : places[(offset || n) - 1]);
    if (ui.view.toAct === seat.seat && !ui.ended) div.classList.add("to-act");
    if (ui.view.out.includes(seat.seat)) div.classList.add("out");
    div.dataset.seat = seat.seat;
    const state = seat.away && !seat.takenOver ? ` · ${t("away")}` : "";
    div.append(element("div", "name", nameOf(seat.seat)), element("div", "count", countText(seat.cards) + state));
    const backs = document.createElement("div"); backs.className = "backs";
    for (let i = 0; i < Math.min(seat.cards, 13); i++) backs.appendChild(Object.assign(document.createElement("div"), { className: "back" }));
    div.appendChild(backs);
    if (div.classList.contains("to-act")) div.appendChild(element("div", "clock", clockText()));
    const last = lastOf(seat.seat);
    const play = element("div", "last-play");
    if (last !== null) play.appendChild(cardsLine(last));
    div.appendChild(play);
    if (ui.you === null && seat.kind === "house") {
      const sit = document.createElement("button"); sit.textContent = t("sit");
      sit.onclick = () => send({ type: "join", table: ui.tableId, seat: seat.seat, name: "Player " + seat.seat });
      div.appendChild(sit);
    }
    box.appendChild(div);
  }
}

// Text from the server or a player (a seat's name) only ever goes into textContent.
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function row(cell, texts) {
  const tr = document.createElement("tr");
  for (const text of texts) tr.appendChild(element(cell, "", text));
  return tr;
}

function cardImage(code) {
  const img = document.createElement("img");
  img.src = `/cards/${code}.svg`; img.alt = cardText(code); img.dataset.card = code;
  return img;
}

// The combination on top, and whose it is; once a trick closes, its last play until the next lead.
function renderCentre() {
  const top = $("top"); top.replaceChildren();
  const plays = trick().filter((a) => a.action !== "pass");
  const shown = ui.view.top ? { seat: ui.view.lastPlayer, action: ui.view.top.cards } : plays[plays.length - 1];
  top.classList.toggle("closed", !ui.view.top);
  if (shown) for (const code of shown.action.split(" ")) top.appendChild(cardImage(code));
  $("owner").textContent = shown && shown.seat !== null ? `▲ ${nameOf(shown.seat)}${ui.view.top ? " · " + t("onTop") : ""}` : "";
  const last = ui.last;
  $("last").textContent = last ? `${nameOf(last.seat)}: ${actionText(last.action)}` : "";
}

// A house seat is named by its seat and bot; a player by the name they chose.
function nameOf(index) {
  const seat = ui.info.seats[index];
  const name = seat.kind === "house" ? `${t("house")} ${index} · ${seat.bot}` : (seat.name || t("seat") + " " + index);
  return index === ui.you ? `${name} (${t("you")})` : name;
}

function renderHand() {
  const hand = $("hand"); hand.replaceChildren();
  for (const code of handCards()) {
    const img = cardImage(code); img.className = "card";
    if (ui.selected.has(code)) img.classList.add("selected");
    img.onclick = (event) => { // a double click's second click is no second toggle
      if (event.detail > 1) return;
      ui.selected.has(code) ? ui.selected.delete(code) : ui.selected.add(code); afterSelect();
    };
    hand.appendChild(img);
  }
  const play = chosenPlay();
  $("play").disabled = !play;
  $("pass").disabled = !legal().includes("pass");
  $("controls").hidden = ui.you === null;
  const mine = ui.you !== null && ui.view.toAct === ui.you && !ui.ended;
  $("mine").classList.toggle("to-act", mine);
  const own = ui.you === null ? null : lastOf(ui.you);
  $("my-last").replaceChildren(...(own === null ? [] : [cardsLine(own)]));
  const hint = ui.matchOver ? t("matchOver")
    : mine ? t("yourTurn") : (ui.view.jumpingIn ? t("jumpIn") : "");
  $("message").textContent = ui.refusal ? ui.refusal.message[ui.lang] : hint;
  $("my-clock").className = mine ? "clock" : "";
  $("my-clock").textContent = mine ? clockText() : "";
}

function renderHistory() {
  const list = $("moves"); list.replaceChildren();
  ui.history.forEach((action, ply) => {
    const li = element("li", ply === ui.trickStart ? "lead" : "");
    li.append(element("span", "who", nameOf(action.seat) + ": "), cardsLine(action.action));
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

const signed = (n) => (n > 0 ? "+" + n : String(n));

// The match so far: each seat's points hand by hand, and its total.
function renderTotals() {
  const results = ui.info.results || [];
  const totals = ui.info.totals || [];
  $("totals-table").replaceChildren(
    row("th", ["", ...results.map((_, i) => String(i + 1)), t("total")]),
    ...ui.info.seats.map((seat) => row("td",
      [nameOf(seat.seat), ...results.map((r) => signed(r.scores[seat.seat])), String(totals[seat.seat] ?? 0)])));
}

function placeWord(place, players) {
  const words = TEXT[ui.lang];
  if (place === players - 1) return words.lastPlace;
  return words.places[place] || words.placeN(place + 1);
}

function itemText(item, result, players) {
  const words = TEXT[ui.lang].item;
  const say = words[item.kind];
  const winner = nameOf(item.player), payer = item.payer === null ? "" : nameOf(item.payer);
  const cards = (item.combos || []).map(cardsText).join(", ");
  if (!say) return `${item.kind}: ${winner} ${signed(item.points)}`;
  if (item.kind === "place") return say(winner, payer, item.points, placeWord(result.finishOrder.indexOf(item.player), players));
  return say(winner, payer, item.points, cards);
}

function renderScores() {
  const box = $("scores");
  box.hidden = !ui.ended || ui.endHidden;
  $("results").hidden = !ui.ended || !ui.endHidden;
  if (!ui.ended) return;
  const { result, totals, left } = ui.ended, n = ui.info.players;
  $("end-title").textContent = `${t("handNo")} ${ui.ended.hand}`;
  $("order").replaceChildren(...result.finishOrder.map((seat, place) => {
    const li = element("li", "");
    li.append(element("b", "place", placeWord(place, n) + ": "), element("span", "", nameOf(seat)));
    const cards = element("span", "reveal");
    for (const code of (left[seat] || "").split(" ").filter(Boolean)) cards.appendChild(cardImage(code));
    li.appendChild(cards);
    return li;
  }));
  const why = result.items.map((item) => itemText(item, result, n));
  if (result.instantWin) why.unshift(TEXT[ui.lang].instantWin(nameOf(result.finishOrder[0]), result.instantWin));
  $("why").replaceChildren(...why.map((text) => element("li", "", text)));
  $("score-table").replaceChildren(row("th", [t("seat"), t("hand"), t("total")]),
    ...ui.info.seats.map((seat) => row("td",
      [nameOf(seat.seat), signed(result.scores[seat.seat]), totals[seat.seat]])));
  const best = Math.max(...totals);
  const winners = ui.info.seats.filter((s) => totals[s.seat] === best).map((s) => nameOf(s.seat));
  $("match-end").textContent = ui.matchOver
    ? `${TEXT[ui.lang].matchEnded(ui.info.results.length)} ${TEXT[ui.lang].wins(winners.join(", "), best)}` : "";
  $("next").hidden = ui.matchOver || ui.you === null;
  $("rematch").hidden = !ui.matchOver || ui.you === null;
  $("leave").hidden = ui.you === null;
}

function afterSelect() {
  ui.refusal = null;
  if (ui.selected.size && !chosenPlay() && ui.you !== null && ui.view.toAct === ui.you) {
    send({ type: "check", action: [...ui.selected].join(" ") }); // the server says why not
  }
  render();
}

$("play").onclick = () => { const play = chosenPlay(); if (play) { send({ type: "move", action: play, ply: ui.ply }); ui.selected.clear(); } };
$("pass").onclick = () => { send({ type: "move", action: "pass", ply: ui.ply }); ui.selected.clear(); };
$("next").onclick = () => { ui.ended = null; send({ type: "ready" }); render(); };
$("rematch").onclick = () => { ui.ended = null; send({ type: "rematch" }); render(); };
$("leave").onclick = () => send({ type: "leave" });
$("hide-end").onclick = () => { ui.endHidden = true; render(); };
$("results").onclick = () => { ui.endHidden = false; render(); };
$("new").onclick = () => send({ type: "create", rules: $("variant").value });
$("lang").onclick = () => { ui.lang = ui.lang === "en" ? "vi" : "en"; localStorage.setItem("tienlen:lang", ui.lang); render(); };
window.addEventListener("hashchange", () => location.reload());
// The move clock counts down between messages; only its text changes (a click is never lost).
setInterval(() => {
  if (ui.clockUntil === null) return;
  document.querySelectorAll(".clock").forEach((el) => { el.textContent = clockText(); });
}, 250);
render();
connect();
