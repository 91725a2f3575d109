// The browser client of `tienlen serve`: it shows what the server sends and sends
// what the player clicks. Every rule stays on the server: the Play button is enabled
// only when the selected cards are one of the server's legal actions, and a refusal
// is the server's own text in English or Vietnamese.
"use strict";

const TEXT = {
  en: { connecting: "connecting…", connected: "at the table", play: "Play", pass: "Pass",
    scores: "Scores", next: "Next hand", rematch: "Rematch", sit: "Sit here", you: "you",
    cards: "cards", house: "house bot", away: "away", yourTurn: "Your turn",
    hand: "Hand", total: "Total", seat: "Seat", matchOver: "Match over",
    passed: "passed", lang: "Tiếng Việt", newTable: "New table",
    jumpIn: "You may jump in!",
    errors: {} }, // the server's own English message
  vi: { connecting: "đang kết nối…", connected: "đã vào bàn", play: "Đánh", pass: "Bỏ lượt",
    scores: "Điểm", next: "Ván mới", rematch: "Chơi lại", sit: "Ngồi đây", you: "bạn",
    cards: "lá", house: "máy", away: "vắng", yourTurn: "Đến lượt bạn",
    hand: "Ván", total: "Tổng", seat: "Ghế", matchOver: "Hết trận",
    passed: "bỏ lượt", lang: "English", newTable: "Bàn mới",
    jumpIn: "Bạn có thể chặt ngoài lượt!",
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

function receive(message) {
  switch (message.type) {
    case "created":
      location.hash = "#" + encodeURIComponent(message.table); // a new page for it
      return;
    case "joined":
      localStorage.setItem("tienlen:seat:" + ui.tableId,
        JSON.stringify({ seat: message.seat, token: message.token }));
      break;
    case "gameFull":
      ui.info = message.table; ui.view = message.state; ui.you = message.you; ui.ply = message.ply;
      ui.selected.clear(); ui.refusal = null; ui.ended = message.ended || null;
      ui.matchOver = message.table.matchOver;
      ui.last = message.history.length ? message.history[message.history.length - 1] : null;
      ui.connected = true;
      break;
    case "gameState":
      ui.view = message.state; ui.info.seats = message.seats; ui.ply = message.ply;
      ui.actions += message.actions.length;
      if (message.actions.length) { ui.last = message.actions[message.actions.length - 1]; ui.refusal = null; }
      for (const code of [...ui.selected]) if (!handCards().includes(code)) ui.selected.delete(code);
      break;
    case "handEnd":
      ui.ended = message; ui.matchOver = message.matchOver;
      break;
    case "matchEnd":
      ui.matchOver = true;
      break;
    case "checked":
      ui.refusal = message.legal ? null : message.refusal;
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
  renderSeats(); renderCentre(); renderHand(); renderScores();
}

function renderSeats() {
  const box = $("seats"); box.replaceChildren();
  const n = ui.info.players, me = ui.you ?? 0, places = seatPositions(n);
  for (const seat of ui.info.seats) {
    const div = document.createElement("div");
    const offset = (seat.seat - me + n) % n;
    if (ui.you !== null && offset === 0) continue;
    div.className = "seat pos-" + (ui.you === null && offset === 0 ? "bottom" : places[(offset || n) - 1]);
    if (ui.view.toAct === seat.seat) div.classList.add("to-act");
    if (ui.view.out.includes(seat.seat)) div.classList.add("out");
    div.dataset.seat = seat.seat;
    const name = seat.kind === "house" ? `${t("house")} (${seat.bot})` : (seat.name || t("seat") + " " + seat.seat);
    const state = seat.away && !seat.takenOver ? ` · ${t("away")}` : "";
    const passed = ui.view.passed.includes(seat.seat) ? ` · ${t("passed")}` : "";
    div.append(element("div", "name", name), element("div", "count", `${seat.cards} ${t("cards")}${state}${passed}`));
    const backs = document.createElement("div"); backs.className = "backs";
    for (let i = 0; i < Math.min(seat.cards, 13); i++) backs.appendChild(Object.assign(document.createElement("div"), { className: "back" }));
    div.appendChild(backs);
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
  img.src = `/cards/${code}.svg`; img.alt = code; img.dataset.card = code;
  return img;
}

function renderCentre() {
  const top = $("top"); top.replaceChildren();
  if (ui.view.top) for (const code of ui.view.top.cards.split(" ")) top.appendChild(cardImage(code));
  const last = ui.last;
  $("last").textContent = last ? `${nameOf(last.seat)}: ${last.action === "pass" ? t("passed") : last.action}` : "";
}

const nameOf = (seat) => (seat === ui.you ? t("you") : (ui.info.seats[seat].name || t("seat") + " " + seat));

function renderHand() {
  const hand = $("hand"); hand.replaceChildren();
  for (const code of handCards()) {
    const img = cardImage(code); img.className = "card";
    if (ui.selected.has(code)) img.classList.add("selected");
    img.onclick = () => { ui.selected.has(code) ? ui.selected.delete(code) : ui.selected.add(code); afterSelect(); };
    hand.appendChild(img);
  }
  const play = chosenPlay();
  $("play").disabled = !play;
  $("pass").disabled = !legal().includes("pass");
  $("controls").hidden = ui.you === null;
  const mine = ui.you !== null && ui.view.toAct === ui.you;
  const hint = ui.matchOver ? t("matchOver")
    : mine ? t("yourTurn") : (ui.view.jumpingIn ? t("jumpIn") : "");
  $("message").textContent = ui.refusal ? ui.refusal.message[ui.lang] : hint;
}

function afterSelect() {
  ui.refusal = null;
  if (ui.selected.size && !chosenPlay() && ui.you !== null && ui.view.toAct === ui.you) {
    send({ type: "check", action: [...ui.selected].join(" ") }); // the server says why not
  }
  render();
}

function renderScores() {
  const box = $("scores");
  box.hidden = !(ui.info.between || ui.ended) || !ui.ended;
  if (box.hidden) return;
  $("score-table").replaceChildren(row("th", [t("seat"), t("hand"), t("total")]),
    ...ui.info.seats.map((seat) => row("td",
      [nameOf(seat.seat), ui.ended.result.scores[seat.seat], ui.ended.totals[seat.seat]])));
  $("next").hidden = ui.matchOver || ui.you === null;
  $("rematch").hidden = !ui.matchOver || ui.you === null;
}

$("play").onclick = () => { const play = chosenPlay(); if (play) { send({ type: "move", action: play, ply: ui.ply }); ui.selected.clear(); } };
$("pass").onclick = () => { send({ type: "move", action: "pass", ply: ui.ply }); ui.selected.clear(); };
$("next").onclick = () => { ui.ended = null; send({ type: "ready" }); render(); };
$("rematch").onclick = () => { ui.ended = null; send({ type: "rematch" }); render(); };
$("new").onclick = () => send({ type: "create", rules: $("variant").value });
$("lang").onclick = () => { ui.lang = ui.lang === "en" ? "vi" : "en"; localStorage.setItem("tienlen:lang", ui.lang); render(); };
window.addEventListener("hashchange", () => location.reload());
render();
connect();
