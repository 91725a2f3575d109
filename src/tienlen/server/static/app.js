// The browser client of `tienlen serve`: it shows what the server sends and sends
// what the player clicks. Every rule stays on the server: the Play button is enabled
// only when the selected cards are one of the server's legal actions, and a refusal
// is the server's own text in English or Vietnamese.
"use strict";

const TEXT = {
  en: { connecting: "connecting…", connected: "at the table", watching: "watching", play: "Play", pass: "Pass",
    scores: "Scores", next: "Next hand", rematch: "Rematch", sit: "Sit here", you: "you",
    card: "card", cards: "cards", house: "Bot", away: "away", takenOver: "away · the bot plays",
    yourTurn: "Your turn", toPlay: "▶ to play",
    hand: "Hand", total: "Total", seat: "Seat", matchOver: "Match over",
    passed: "Pass", lang: "Tiếng Việt", newTable: "New table",
    jumpIn: "You may jump in!", leave: "Leave", history: "This hand", totals: "Match",
    onTop: "on top", results: "Results", showTable: "Show the table",
    order: "Finishing order", points: "Points", handNo: "Hand", clock: (n) => `${n} s left`,
    places: ["1st", "2nd", "3rd"], placeN: (n) => `${n}th`, lastPlace: "last",
    yourHand: "Your hand", ok: "OK", rules: "Rules", houseRules: "House rules", players: "Players",
    seatsLegend: "Seats", handsLabel: "Hands (empty: no limit)", clockLabel: "Move clock",
    yourName: "Your name", create: "Create table", cancel: "Cancel", sitDown: "Sit down",
    whoAreYou: "Your name at the table", noLimit: "no limit", clockOff: "off",
    seconds: (n) => `${n} s`, youSit: "you", share: "Share this table", copy: "Copy",
    copied: "Copied", tableTitle: "Table", noHouseRules: "no house rules",
    openNote: "An open seat waits for a person: the first hand is dealt once every open seat is taken. Whoever opens the table's link may take an open seat or a bot's.",
    openSeat: "open (a person)", open: "Open seat", waitingFor: (n) => `Waiting for ${n} ${n === 1 ? "player" : "players"}…`,
    takeOpen: "Take the open seat", fillStart: "Fill with bots and start",
    rulesFile: "House-rules file (optional: replaces the rules above)",
    rulesFileTooBig: (kb) => `The house-rules file is larger than ${kb} KB.`,
    bot: (name, slow) => `${name} bot${slow ? " (searches: slower)" : ""}`,
    sitAt: (seat, name) => `Sit here: seat ${seat}, now ${name}`,
    rulesLine: (name, changed) => `Rules: ${name}${changed ? ", with house rules:" : ""}`,
    handOf: (n, of) => (of ? `Hand ${n} of ${of}` : `Hand ${n}, no limit`),
    clockInfo: (s) => (s ? `Move clock: ${s} s a move` : "No move clock"),
    botPlayed: (moves) => `The bot played for you: ${moves}.`,
    whileAway: (n) => `While you were away, ${n} ${n === 1 ? "hand" : "hands"} ended.`,
    on: "yes", off: "no",
    suits: { s: "spades", c: "clubs", d: "diamonds", h: "hearts" },
    ranks: { J: "jack", Q: "queen", K: "king", A: "ace" },
    cardName: (rank, suit) => `${rank} of ${suit}`,
    houseRule: {
      twos_in_straights: "A 2 may end a straight",
      twos_in_consecutive_pairs: "A pair of 2s may end consecutive pairs",
      bombs_may_lead: "Consecutive pairs may lead a trick",
      four_of_a_kind_may_lead: "A four of a kind may lead a trick",
      suited_straights: "A one-suit straight is beaten only by a one-suit straight",
      longer_pair_runs_beat_shorter: "Longer consecutive pairs beat shorter ones",
      pass_locks_out: "A pass sits out the rest of the trick",
      chop_chain: "Chops add up along a chain",
      no_going_out_with_two: "No going out on a 2",
      no_going_out_with_bomb: "No going out on a bomb" },
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
    review: "Review", reviewOf: (n) => `Review of hand ${n}`, close: "Close",
    analysing: "Analysing the hand on the server…", accuracy: "Accuracy", moves: "Moves",
    graph: "Chance of going out first after each of a player's moves, as the analysis values it",
    graphY: "going out first", graphX: "move", better: "Better:",
    labels: { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" },
    lost: (n) => `lost ${n} points of win chance`,
    reviewFailed: "The review could not be made.",
    reviewProgress: (done, total) => `${done} of ${total} decisions`,
    errors: {} }, // the server's own English message
  vi: { connecting: "đang kết nối…", connected: "đã vào bàn", watching: "đang xem", play: "Đánh", pass: "Bỏ lượt",
    scores: "Điểm", next: "Ván mới", rematch: "Chơi lại", sit: "Ngồi đây", you: "bạn",
    card: "lá", cards: "lá", house: "Máy", away: "vắng", takenOver: "vắng · máy đánh thay",
    yourTurn: "Đến lượt bạn", toPlay: "▶ đang đánh",
    hand: "Ván", total: "Tổng", seat: "Ghế", matchOver: "Hết trận",
    passed: "Bỏ lượt", lang: "English", newTable: "Bàn mới",
    jumpIn: "Bạn có thể chặt ngoài lượt!", leave: "Rời bàn", history: "Ván này",
    totals: "Cả trận", onTop: "đang trên cùng", results: "Kết quả", showTable: "Xem bàn",
    order: "Thứ tự về", points: "Điểm", handNo: "Ván", clock: (n) => `còn ${n} giây`,
    places: ["về nhất", "về nhì", "về ba"], placeN: (n) => `về thứ ${n}`, lastPlace: "về bét",
    yourHand: "Bài của bạn", ok: "Đã hiểu", rules: "Luật chơi", houseRules: "Luật riêng",
    players: "Số người chơi", seatsLegend: "Các ghế", handsLabel: "Số ván (để trống: không giới hạn)",
    clockLabel: "Thời gian mỗi lượt", yourName: "Tên của bạn", create: "Mở bàn", cancel: "Hủy",
    sitDown: "Ngồi vào bàn", whoAreYou: "Tên của bạn ở bàn", noLimit: "không giới hạn",
    clockOff: "không tính giờ", seconds: (n) => `${n} giây`, youSit: "bạn", share: "Chia sẻ bàn này",
    copy: "Chép", copied: "Đã chép", tableTitle: "Bàn", noHouseRules: "không có luật riêng",
    openNote: "Ghế trống chờ người chơi: ván đầu được chia khi mọi ghế trống đã có người. Ai mở đường dẫn của bàn đều có thể ngồi vào ghế trống hoặc ghế của máy.",
    openSeat: "để trống (cho người chơi)", open: "Ghế trống", waitingFor: (n) => `Đang chờ ${n} người chơi…`,
    takeOpen: "Ngồi vào ghế trống", fillStart: "Cho máy ngồi các ghế trống và bắt đầu",
    rulesFile: "Tệp luật riêng (không bắt buộc: thay cho luật ở trên)",
    rulesFileTooBig: (kb) => `Tệp luật riêng lớn hơn ${kb} KB.`,
    bot: (name, slow) => `máy ${name}${slow ? " (tìm kiếm: chậm hơn)" : ""}`,
    sitAt: (seat, name) => `Ngồi đây: ghế ${seat}, đang là ${name}`,
    rulesLine: (name, changed) => `Luật: ${name}${changed ? ", có luật riêng:" : ""}`,
    handOf: (n, of) => (of ? `Ván ${n}/${of}` : `Ván ${n}, không giới hạn`),
    clockInfo: (s) => (s ? `Mỗi lượt ${s} giây` : "Không tính giờ"),
    botPlayed: (moves) => `Máy đã đánh thay bạn: ${moves}.`,
    whileAway: (n) => `Trong lúc bạn vắng, đã xong ${n} ván.`,
    on: "có", off: "không",
    suits: { s: "bích", c: "chuồn", d: "rô", h: "cơ" },
    ranks: {},
    cardName: (rank, suit) => `${rank} ${suit}`,
    houseRule: {
      twos_in_straights: "Sảnh được có heo (2)",
      twos_in_consecutive_pairs: "Đôi thông được có đôi heo",
      bombs_may_lead: "Được mở vòng bằng đôi thông",
      four_of_a_kind_may_lead: "Được mở vòng bằng tứ quý",
      suited_straights: "Sảnh đồng chất chỉ bị chặn bằng sảnh đồng chất",
      longer_pair_runs_beat_shorter: "Đôi thông dài chặt được đôi thông ngắn",
      pass_locks_out: "Đã bỏ lượt thì mất cả vòng",
      chop_chain: "Chặt chồng được cộng dồn",
      no_going_out_with_two: "Không được về bằng heo",
      no_going_out_with_bomb: "Không được về bằng hàng" },
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
    review: "Xem lại", reviewOf: (n) => `Xem lại ván ${n}`, close: "Đóng",
    analysing: "Máy chủ đang phân tích ván…", accuracy: "Độ chính xác", moves: "Các nước đi",
    graph: "Khả năng về nhất sau mỗi nước của từng người, theo phân tích",
    graphY: "khả năng về nhất", graphX: "nước", better: "Nên đánh:",
    labels: { inaccuracy: "Nước chưa chính xác", mistake: "Nước sai", blunder: "Nước sai nghiêm trọng" },
    lost: (n) => `mất ${n} điểm cơ hội thắng`,
    reviewFailed: "Không phân tích được ván này.",
    reviewProgress: (done, total) => `${done} trên ${total} nước đi`,
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
      "bad-rules": "Các luật riêng này không đi với nhau được.",
      waiting: "Chưa chia bài: bàn đang chờ người chơi.",
      "not-host": "Chỉ người mở bàn mới bắt đầu được khi còn ghế trống.",
      "not-waiting": "Bàn không còn chờ người chơi.",
      "bad-name": "Tên này không dùng được.",
      "not-seated": "Hãy ngồi vào bàn hoặc xem bàn trước.",
      "hand-in-play": "Ván đang chơi: chỉ xem lại được giữa hai ván.",
      "no-hand": "Không còn ván này để xem lại.",
      "review-busy": "Một bản phân tích bạn yêu cầu đang chạy: hãy đợi nó xong.",
      internal: "Máy chủ gặp lỗi, hãy thử lại." } },
};

const params = new URLSearchParams(location.search);
const ui = {
  lang: localStorage.getItem("tienlen:lang") || "en",
  // The table is the address's fragment (/#CODE) or ?table=CODE: a code, never a credential.
  tableId: decodeURIComponent(location.hash.replace(/^#/, "")) || params.get("table") || "main",
  socket: null, info: null, view: null, you: null,
  selected: new Set(), refusal: null, last: null, ended: null, matchOver: false,
  connected: false,
  actions: 0, // actions seen so far, for anyone following the page (tests, a log)
  ply: 0, // the hand's actions so far: every move names it, so a replayed move is refused
  hand: 0, // the table's hand number
  history: [], // this hand's actions, {seat, action}
  trickStart: 0, // where the current trick starts in history (the server says)
  clockUntil: null, // when the move clock runs out, in performance.now() time
  endHidden: false, // the end-of-hand panel put aside to look at the table
  sent: new Set(), // the plies this page sent a move at: any other move of its seat was the bot's
  notice: null, // what the bot played for the player, {en, vi}
  presets: {}, // name: settings, from /api/presets/NAME
  bots: [], // [{name, slow}], from /api/bots
  joining: null, // the seat asked for, until joined
  resuming: false, // a hello sent: the next gameFull is the seat's return
  createSeat: null, // the seat the New table dialog keeps for its creator
  review: null, // the review shown: {hand, error}
  reviews: {}, // the reviews received, by hand number
  reviewProgress: {}, // how far each review being made is, by hand number: {done, total}
};

const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[ui.lang][key] || key;
const send = (message) => ui.socket.send(JSON.stringify({ v: 1, ...message }));
const stored = () => JSON.parse(localStorage.getItem("tienlen:seat:" + ui.tableId) || "null");
const seenKey = () => "tienlen:seen:" + ui.tableId;

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ui.socket = new WebSocket(`${scheme}//${location.host}/ws`);
  ui.socket.onopen = () => {
    const seat = stored();
    const sit = sessionStorage.getItem("tienlen:sit:" + ui.tableId); // the creator's own seat
    sessionStorage.removeItem("tienlen:sit:" + ui.tableId);
    ui.resuming = Boolean(seat); // its gameFull tells what the bot played meanwhile
    if (seat) send({ type: "hello", table: ui.tableId, seat: seat.seat, token: seat.token });
    else if (sit !== null) join(Number(sit));
    else send({ type: "watch", table: ui.tableId });
  };
  ui.socket.onmessage = (event) => receive(JSON.parse(event.data));
  ui.socket.onclose = () => { ui.connected = false; render(); setTimeout(connect, 1000); };
}

function join(seat) {
  ui.joining = seat;
  send({ type: "join", table: ui.tableId, seat, name: localStorage.getItem("tienlen:name") || "" });
}

function clockFrom(message) {
  ui.clockUntil = message.clockLeft == null ? null : performance.now() + 1000 * message.clockLeft;
}

function receive(message) {
  switch (message.type) {
    case "created":
      if (typeof ui.createSeat === "number") sessionStorage.setItem("tienlen:sit:" + message.table, String(ui.createSeat));
      if (message.host) sessionStorage.setItem("tienlen:host:" + message.table, message.host); // for "start"
      location.hash = "#" + encodeURIComponent(message.table); // a new page for it
      return;
    case "joined":
      localStorage.setItem("tienlen:seat:" + ui.tableId,
        JSON.stringify({ seat: message.seat, token: message.token }));
      localStorage.removeItem(seenKey());
      ui.joining = null;
      break;
    case "left":
      localStorage.removeItem("tienlen:seat:" + ui.tableId); // the connection watches now
      localStorage.removeItem(seenKey());
      ui.you = null; ui.selected.clear(); ui.notice = null;
      if (ui.view) for (const key of ["seat", "hand", "legal"]) delete ui.view[key];
      break;
    case "gameFull":
      ui.info = message.table; ui.view = message.state; ui.you = message.you; ui.ply = message.ply;
      ui.hand = message.table.hand; ui.sent.clear();
      ui.selected.clear(); ui.refusal = null; ui.ended = message.ended || null;
      ui.matchOver = message.table.matchOver; ui.endHidden = false;
      ui.history = message.history.slice(); ui.trickStart = message.trickStart || 0;
      ui.last = message.history.length ? message.history[message.history.length - 1] : null;
      ui.connected = true; clockFrom(message);
      if (ui.you !== null && ui.resuming) noticeAfterAway(JSON.parse(localStorage.getItem(seenKey()) || "null"));
      ui.resuming = false;
      break;
    case "gameState":
      if (message.hand !== ui.hand) { ui.sent.clear(); ui.hand = ui.info.hand = message.hand; }
      botMoves(message.actions, message.ply - message.actions.length);
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
    case "reviewing":
      return;
    case "reviewProgress":
      ui.reviewProgress[message.hand] = { done: message.done, total: message.total };
      renderReview();
      return;
    case "review":
      ui.reviews[message.hand] = message;
      renderReview();
      return;
    case "checked": // an answer about a selection since changed says nothing now
      ui.refusal = message.legal || !sameCards(message.action, ui.selected) ? null : message.refusal;
      break;
    case "error":
      if (message.code === "bad-credential") {
        localStorage.removeItem("tienlen:seat:" + ui.tableId);
        send({ type: "watch", table: ui.tableId });
      }
      if (message.in === "create") { $("options-error").textContent = (message.localized || errorText(message))[ui.lang]; return; }
      if (message.in === "review") { if (ui.review) ui.review.error = errorText(message); renderReview(); return; }
      if (message.in === "join" && message.code === "bad-name") { askName(ui.joining, errorText(message)); return; }
      ui.refusal = message.refusal || { message: errorText(message) };
      break;
  }
  if (ui.you !== null && ui.info) localStorage.setItem(seenKey(), JSON.stringify({ hand: ui.hand, ply: ui.ply, ended: Boolean(ui.ended) }));
  render();
}

// An error without the library's refusal: the server's English, and its code's Vietnamese.
const errorText = (message) => ({
  en: message.message, vi: TEXT.vi.errors[message.code] || message.message });

// -- presence: what the bot played for this seat -------------------------------------

// Moves of this seat that this page did not send: the house bot's (the clock ran out, say).
function botMoves(actions, from) {
  if (ui.you === null) return;
  const theirs = actions.filter((a, i) => a.seat === ui.you && !ui.sent.has(from + i));
  if (theirs.length) tellBotPlayed(theirs.map((a) => a.action), 0);
}

// Back at the table: the moves made for this seat since the page last saw it.
function noticeAfterAway(seen) {
  if (!seen) return;
  const hands = Math.max(0, ui.hand - seen.hand - (seen.ended ? 1 : 0));
  const from = ui.hand === seen.hand ? seen.ply : 0;
  const theirs = ui.history.slice(from).filter((a) => a.seat === ui.you).map((a) => a.action);
  if (theirs.length || hands > 0) tellBotPlayed(theirs, hands);
}

// The notice gathers the bot's moves until the player moves or dismisses it.
function tellBotPlayed(actions, hands) {
  if (ui.notice) { actions = [...ui.notice.actions, ...actions]; hands += ui.notice.hands; }
  const say = (lang) => {
    const words = TEXT[lang];
    const moves = actions.map((a) => (a === "pass" ? words.passed : cardsText(a))).join(", ");
    return [hands ? words.whileAway(hands) : "", actions.length ? words.botPlayed(moves) : ""]
      .filter(Boolean).join(" ");
  };
  ui.notice = { en: say("en"), vi: say("vi"), actions, hands };
}

const handCards = () => (ui.view && ui.view.hand ? ui.view.hand.split(" ").filter(Boolean) : []);
const legal = () => (ui.view && ui.view.legal) || [];
const sameCards = (text, codes) => {
  const cards = text.split(" ");
  return cards.length === codes.size && cards.every((c) => codes.has(c));
};
const chosenPlay = () => legal().find((a) => a !== "pass" && sameCards(a, ui.selected));

// Cards as people write them: "Td Jc" is "10♦ J♣"; and as people say them: "10 of diamonds".
const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
const rankText = (code) => (code[0] === "T" ? "10" : code[0]);
const cardText = (code) => rankText(code) + (SUITS[code[1]] || code.slice(1));
const cardsText = (text) => text.split(" ").filter(Boolean).map(cardText).join(" ");
const actionText = (action) => (action === "pass" ? t("passed") : cardsText(action));
const countText = (n) => `${n} ${n === 1 ? t("card") : t("cards")}`;
function cardName(code, lang = ui.lang) {
  const words = TEXT[lang], rank = rankText(code);
  return words.cardName(words.ranks[rank] || rank, words.suits[code[1]] || code.slice(1));
}
const cardsName = (action) => (action === "pass" ? t("passed") : action.split(" ").map((c) => cardName(c)).join(", "));

// Cards as red or black symbols, for a seat's last play and the hand's history.
function cardsLine(action) {
  const span = element("span", "cards-line");
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardsName(action));
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

// Re-rendering replaces the hand and the seats: the focused card or button keeps the focus.
function focusKey() {
  const active = document.activeElement;
  return active && active.dataset ? active.dataset.focus || null : null;
}

function restoreFocus(key) {
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  const fallback = key.startsWith("card:") ? document.querySelector("#hand .card") || $("play") : null;
  (again || fallback)?.focus();
}

function render() {
  const key = focusKey();
  document.documentElement.lang = ui.lang;
  $("lang").textContent = t("lang");
  $("status").textContent = !ui.connected ? t("connecting")
    : `${ui.you === null ? t("watching") : t("connected")} · ${ui.tableId}`;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => el.setAttribute("aria-label", t(el.dataset.i18nLabel)));
  renderNotice();
  if (!ui.info || !ui.view) return;
  renderSeats(); renderCentre(); renderHand(); renderWaiting(); renderHistory(); renderAbout(); renderTotals(); renderScores();
  renderReview();
  restoreFocus(key);
}

function renderNotice() {
  $("notice").hidden = !ui.notice;
  $("notice-text").textContent = ui.notice ? ui.notice[ui.lang] : "";
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

function presenceText(seat) {
  if (seat.takenOver) return t("takenOver");
  return seat.away ? t("away") : "";
}

function renderSeats() {
  const box = $("seats"); box.replaceChildren();
  const n = ui.info.players, me = ui.you ?? 0, places = seatPositions(n);
  for (const seat of ui.info.seats) {
    const div = document.createElement("div");
    const offset = (seat.seat - me + n) % n;
    if (ui.you !== null && offset === 0) continue;
    div.className = "seat pos-" + (ui.you === null && offset === 0 ? "bottom" : places[(offset || n) - 1]);
    const toAct = ui.view.toAct === seat.seat && !ui.ended;
    div.classList.toggle("to-act", toAct);
    const place = ui.view.finishOrder.indexOf(seat.seat);
    if (ui.view.out.includes(seat.seat)) div.classList.add("out");
    const presence = presenceText(seat);
    div.classList.toggle("away", Boolean(presence));
    div.dataset.seat = seat.seat;
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", [nameOf(seat.seat), presence, toAct ? t("toPlay").replace("▶ ", "") : ""].filter(Boolean).join(", "));
    div.append(element("div", "name", nameOf(seat.seat)), element("div", "count", countText(seat.cards)));
    if (presence) div.appendChild(element("div", "presence", presence));
    if (place >= 0) div.appendChild(element("div", "place", placeWord(place, n)));
    const backs = document.createElement("div"); backs.className = "backs";
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(seat.cards, 13); i++) backs.appendChild(Object.assign(document.createElement("div"), { className: "back" }));
    div.appendChild(backs);
    if (toAct) div.append(element("div", "turn", t("toPlay")), element("div", "clock", clockText()));
    const last = lastOf(seat.seat);
    const play = element("div", "last-play");
    if (last !== null) play.appendChild(cardsLine(last));
    div.appendChild(play);
    if (ui.you === null && (seat.kind === "house" || seat.kind === "open")) {
      const sit = element("button", "", t("sit"));
      sit.type = "button"; sit.dataset.focus = "sit:" + seat.seat;
      sit.setAttribute("aria-label", TEXT[ui.lang].sitAt(seat.seat, nameOf(seat.seat)));
      sit.onclick = () => (localStorage.getItem("tienlen:name") ? join(seat.seat) : askName(seat.seat, null));
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
  img.src = `/cards/${code}.svg`; img.alt = cardName(code); img.dataset.card = code;
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
  const name = seat.kind === "house" ? `${t("house")} ${index} · ${seat.bot}`
    : seat.kind === "open" ? `${t("open")} ${index}` : (seat.name || t("seat") + " " + index);
  return index === ui.you ? `${name} (${t("you")})` : name;
}

// The hand: one button per card (a tap target; Tab, then Space or Enter, from the keyboard).
function renderHand() {
  const hand = $("hand"); hand.replaceChildren();
  for (const code of handCards()) {
    const button = document.createElement("button");
    button.type = "button"; button.className = "card"; button.dataset.card = code;
    button.dataset.focus = "card:" + code;
    button.setAttribute("aria-label", cardName(code));
    button.setAttribute("aria-pressed", String(ui.selected.has(code)));
    const img = cardImage(code); img.alt = ""; button.appendChild(img);
    if (ui.selected.has(code)) button.classList.add("selected");
    button.onclick = (event) => { // a double click's second click is no second toggle
      if (event.detail > 1) return;
      ui.selected.has(code) ? ui.selected.delete(code) : ui.selected.add(code); afterSelect();
    };
    hand.appendChild(button);
  }
  const play = chosenPlay();
  $("play").disabled = !play;
  $("play").setAttribute("aria-label", play ? `${t("play")}: ${cardsName(play)}` : t("play"));
  $("pass").disabled = !legal().includes("pass");
  $("controls").hidden = ui.you === null;
  $("leave-seat").hidden = ui.you === null;
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

// -- the review of a finished hand ----------------------------------------------------

// The server analyses the hand (once: the next viewer gets it at once); the page draws it.
function openReview(hand, focus = true) {
  ui.review = { hand, error: null };
  if (!ui.reviews[hand]) { delete ui.reviewProgress[hand]; send({ type: "review", hand }); }
  if (!$("review").open) $("review").showModal();
  renderReview();
  if (focus) $("review-close").focus();
}

const LABEL_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SEAT_COLOURS = ["#ffd166", "#6ec6ff", "#ff8a80", "#b9f6ca", "#e1bee7", "#ffcc80", "#80cbc4", "#f48fb1"];
const SEAT_DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 4", "1 4", "12 4", "6 2 2 2"];

function renderReview() {
  if (!ui.review || !$("review").open) return;
  const words = TEXT[ui.lang], hand = ui.review.hand, data = ui.reviews[hand];
  $("review-title").textContent = words.reviewOf(hand);
  renderReviewPick(hand);
  $("review-status").textContent = ui.review.error ? ui.review.error[ui.lang] : data ? "" : words.analysing;
  renderReviewProgress(!data && !ui.review.error ? ui.reviewProgress[hand] || null : undefined);
  $("review-body").hidden = !data;
  if (!data) return;
  const decisions = {};
  for (const d of data.analysis.decisions) decisions[d.index] = d;
  const players = data.analysis.players;
  $("review-accuracy").replaceChildren(...Array.from({ length: players }, (_, seat) => {
    const a = data.analysis.accuracy[String(seat)];
    return row("td", [nameOf(seat), a === undefined ? "–" : `${a.toFixed(1)}%`]);
  }));
  $("review-graph").replaceChildren(reviewGraph(data, players));
  $("review-caption").textContent = words.graph;
  const focused = document.activeElement === $("review-moves");
  $("review-moves").replaceChildren(...data.actions.map((action, index) =>
    reviewMove(action, decisions[index], (data.explanations || {})[index])));
  if (focused) $("review-moves").focus();
}

// While the server analyses: a bar, at first without a value, then "n of m decisions"; hidden once done.
function renderReviewProgress(progress) {
  const bar = $("review-bar");
  $("review-progress").hidden = progress === undefined;
  if (progress === undefined) return;
  if (progress) {
    bar.max = progress.total; bar.value = progress.done;
  } else {
    bar.removeAttribute("value"); // indeterminate: the first decision is being valued
  }
  $("review-count").textContent = progress ? TEXT[ui.lang].reviewProgress(progress.done, progress.total) : "";
}

// The match's finished hands the server keeps (its last 8), to review another one.
function renderReviewPick(hand) {
  const last = ui.ended ? ui.ended.hand : hand;
  const played = Math.min(8, (ui.info.results || []).length);
  const hands = Array.from({ length: played }, (_, i) => last - played + 1 + i);
  if (!hands.includes(hand)) hands.push(hand);
  $("review-pick").hidden = hands.length < 2;
  $("review-hand").replaceChildren(...hands.map((n) => Object.assign(element("option", "", `${t("handNo")} ${n}`), { value: String(n) })));
  $("review-hand").value = String(hand);
}

// One move: who played what; a flagged one with its label (a mark and a word, not only a colour) and the better play.
function reviewMove(action, decision, explanation) {
  const words = TEXT[ui.lang];
  const li = element("li", "");
  li.append(element("span", "who", nameOf(action.seat) + ": "), cardsLine(action.action));
  if (!decision || !decision.label) return li;
  li.classList.add("flagged", "label-" + decision.label);
  li.dataset.label = decision.label;
  const badge = element("span", "badge", `${LABEL_MARKS[decision.label]} ${words.labels[decision.label]}`);
  const better = decision.best[0].action;
  const line = element("div", "better");
  line.append(element("span", "", words.better + " "), cardsLine(better.cards === null ? "pass" : better.cards),
    element("span", "loss", ` · ${words.lost(Math.round(decision.win_loss))}`));
  li.append(" ", badge, line);
  if (explanation) li.appendChild(element("p", "explain", explanation[ui.lang]));
  return li;
}

const SVG = "http://www.w3.org/2000/svg";
function svgNode(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// One line per seat: its chance of going out first after each of its moves (the move played, valued).
function reviewGraph(data, players) {
  const words = TEXT[ui.lang];
  // Drawn at the width it is shown at (a phone's ~350 px up to 640), so its words keep their size.
  const width = Math.round(Math.min(640, Math.max(320, $("review-graph").clientWidth || 640))), height = 240, left = 44, right = 12, top = 12, bottom = 28 + 18 * Math.ceil(players / 2);
  const plotH = height - top - bottom, plotW = width - left - right;
  const moves = Math.max(1, data.actions.length - 1);
  const x = (index) => left + (plotW * index) / moves;
  const y = (chance) => top + plotH * (1 - chance);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": words.graph, class: "graph" });
  svg.appendChild(svgNode("title", {}, words.graph));
  for (const chance of [0, 0.5, 1]) {
    svg.appendChild(svgNode("line", { x1: left, x2: width - right, y1: y(chance), y2: y(chance), class: "grid" }));
    svg.appendChild(svgNode("text", { x: left - 6, y: y(chance) + 4, "text-anchor": "end", class: "axis" }, `${chance * 100}%`));
  }
  svg.appendChild(svgNode("text", { x: left + plotW / 2, y: top + plotH + 16, "text-anchor": "middle", class: "axis" },
    `${words.graphX} → (${data.actions.length})`));
  for (let seat = 0; seat < players; seat++) {
    const mine = data.analysis.decisions.filter((d) => d.seat === seat);
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length], dash = SEAT_DASHES[seat % SEAT_DASHES.length];
    const points = mine.map((d) => `${x(d.index).toFixed(1)},${y(d.played.first[0]).toFixed(1)}`).join(" ");
    const line = svgNode("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, class: "seat-line" });
    if (dash) line.setAttribute("stroke-dasharray", dash);
    line.dataset.seat = seat;
    line.appendChild(svgNode("title", {}, nameOf(seat)));
    svg.appendChild(line);
    for (const d of mine.filter((d) => d.label)) {
      const mark = svgNode("circle", { cx: x(d.index), cy: y(d.played.first[0]), r: 5, fill: colour, class: "flag-mark" });
      mark.appendChild(svgNode("title", {}, `${nameOf(seat)}: ${LABEL_MARKS[d.label]} ${words.labels[d.label]}`));
      svg.appendChild(mark);
    }
    const lx = left + (seat % 2) * (plotW / 2), ly = height - bottom + 30 + 18 * Math.floor(seat / 2);
    const sample = svgNode("line", { x1: lx, x2: lx + 28, y1: ly - 4, y2: ly - 4, stroke: colour, "stroke-width": 3, class: "legend-line" });
    if (dash) sample.setAttribute("stroke-dasharray", dash);
    svg.append(sample, svgNode("text", { x: lx + 34, y: ly, class: "legend" }, nameOf(seat)));
  }
  return svg;
}

// -- the table's rules and options ----------------------------------------------------

const HOUSE_RULES = Object.keys(TEXT.en.houseRule);

// The preset a rule set derives from (the fewest settings changed), and the settings changed.
function derivedPreset(settings) {
  let best = null;
  for (const [name, preset] of Object.entries(ui.presets)) {
    const changed = Object.keys(preset).filter((k) => JSON.stringify(preset[k]) !== JSON.stringify(settings[k]));
    if (best === null || changed.length < best.changed.length) best = { name, changed };
  }
  return best;
}

function settingText(key, value) {
  const label = TEXT[ui.lang].houseRule[key];
  if (label && typeof value === "boolean") return `${value ? "✓" : "✗"} ${label}: ${value ? t("on") : t("off")}`;
  return `${key}: ${JSON.stringify(value)}`;
}

function renderAbout() {
  const settings = ui.info.rules.settings || {};
  const derived = derivedPreset(settings);
  const name = derived ? derived.name : ui.info.rules.name;
  const changed = derived ? derived.changed : [];
  $("rules-line").textContent = TEXT[ui.lang].rulesLine(name, changed.length) + (derived && !changed.length ? ` (${t("noHouseRules")})` : "");
  $("house-rules").replaceChildren(...changed.map((key) => element("li", "", settingText(key, settings[key]))));
  $("match-line").textContent = `${TEXT[ui.lang].handOf(ui.info.hand, ui.info.hands)} · ${TEXT[ui.lang].clockInfo(ui.info.clock)}`;
  const link = `${location.origin}/#${encodeURIComponent(ui.tableId)}`;
  if ($("share-link").value !== link) $("share-link").value = link;
}

async function loadOptions() {
  const [names, bots] = await Promise.all([fetch("/api/presets").then((r) => r.json()), fetch("/api/bots").then((r) => r.json())]);
  ui.bots = bots.length ? bots : [{ name: "greedy", slow: false }];
  const loaded = await Promise.all(names.map((p) => fetch(`/api/presets/${encodeURIComponent(p.name)}`).then((r) => r.json())));
  for (const rules of loaded) ui.presets[rules.name] = rules.settings;
  render();
}

function openOptions() {
  $("options-error").textContent = "";
  $("opt-name").value = localStorage.getItem("tienlen:name") || "";
  fillOptions();
  $("options").showModal();
  $("variant").focus();
}

// The dialog's fields for the chosen preset: its house rules, its numbers of players, the seats.
function fillOptions() {
  const name = $("variant").value, preset = ui.presets[name] || {};
  const kept = {}; // the toggles chosen for this preset stay (a change of language redraws them)
  if ($("house-list").dataset.preset === name) {
    for (const box of $("house-list").querySelectorAll("input[data-setting]")) kept[box.dataset.setting] = box.checked;
  }
  $("house-list").dataset.preset = name;
  $("house-list").replaceChildren(...HOUSE_RULES.filter((key) => key in preset).map((key) => {
    const label = element("label", "toggle");
    const box = Object.assign(document.createElement("input"), { type: "checkbox", checked: kept[key] ?? preset[key] });
    box.dataset.setting = key;
    label.append(box, " ", TEXT[ui.lang].houseRule[key]);
    return label;
  }));
  const players = $("players"), chosen = Number(players.value) || 4;
  const low = Math.max(2, preset.min_players || 2), high = Math.min(8, preset.max_players || 4);
  players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => element("option", "", String(low + i))));
  players.value = String(Math.min(high, Math.max(low, chosen)));
  fillSeats();
  const clock = $("clock").value;
  $("clock").replaceChildren(...[null, 15, 30, 60, 120].map((s) => {
    const option = element("option", "", s === null ? t("clockOff") : TEXT[ui.lang].seconds(s));
    option.value = s === null ? "" : String(s);
    return option;
  }));
  $("clock").value = clock;
  $("hands").placeholder = t("noLimit");
}

function fillSeats() {
  const n = Number($("players").value);
  const before = [...$("seat-list").querySelectorAll("select")].map((s) => s.value);
  $("seat-list").replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const field = element("div", "field");
    const label = element("label", "", `${t("seat")} ${seat}`);
    const select = document.createElement("select");
    select.id = "seat-" + seat; label.htmlFor = select.id; select.dataset.seat = seat;
    select.append(Object.assign(element("option", "", t("youSit")), { value: "you" }),
      Object.assign(element("option", "", t("openSeat")), { value: "open" }),
      ...ui.bots.map((bot) => Object.assign(element("option", "", TEXT[ui.lang].bot(bot.name, bot.slow)), { value: bot.name })));
    select.value = before[seat] || (seat === 0 ? "you" : "greedy");
    select.onchange = () => { // one seat is the creator's
      if (select.value !== "you") return;
      for (const other of $("seat-list").querySelectorAll("select")) if (other !== select && other.value === "you") other.value = "greedy";
    };
    field.append(label, select);
    return field;
  }));
}

// The create message the dialog describes; the server checks it (and its limits) again.
function createMessage() {
  const name = $("variant").value, preset = ui.presets[name] || {};
  const settings = { ...preset };
  for (const box of $("house-list").querySelectorAll("input[data-setting]")) settings[box.dataset.setting] = box.checked;
  const changed = Object.keys(preset).some((k) => settings[k] !== preset[k]);
  const seats = [...$("seat-list").querySelectorAll("select")].map((s) => s.value);
  const hands = $("hands").value.trim();
  ui.createSeat = seats.includes("you") ? seats.indexOf("you") : null;
  // A person's seat, the creator's included, is "open": the table deals once each is taken.
  const people = seats.some((s) => s === "you" || s === "open");
  const sitting = people ? { seats: seats.map((s) => (s === "you" ? "open" : s)) } : { bots: seats };
  return { type: "create", rules: changed ? { name, settings } : name, players: seats.length, ...sitting,
    hands: hands === "" ? null : Number(hands), clock: $("clock").value === "" ? null : Number($("clock").value) };
}

// -- seats kept for people, and a house-rules file -------------------------------------

const RULES_FILE_MAX = 12 * 1024; // characters: the server's MAX_RULES_FILE
const openSeats = () => (ui.info ? ui.info.seats.filter((s) => s.kind === "open") : []);
const hostToken = () => sessionStorage.getItem("tienlen:host:" + ui.tableId);

// While seats wait for people: how many, a seat to take, and the creator's "start now".
function renderWaiting() {
  const open = openSeats();
  $("waiting").hidden = !open.length;
  if (!open.length) return;
  $("waiting-text").textContent = TEXT[ui.lang].waitingFor(open.length);
  $("take-open").hidden = ui.you !== null;
  $("fill-start").hidden = ui.you === null || !hostToken();
}

function takeOpenSeat() {
  const [seat] = openSeats();
  if (!seat) return;
  localStorage.getItem("tienlen:name") ? join(seat.seat) : askName(seat.seat, null);
}

// The dialog's message, with the chosen house-rules file in place of the rules (read here,
// checked by the server); null, and the reason shown, for a file too large to send.
async function withRulesFile(message) {
  const file = $("rules-file").files[0];
  if (!file) return message;
  if (file.size > RULES_FILE_MAX) {
    $("options-error").textContent = TEXT[ui.lang].rulesFileTooBig(RULES_FILE_MAX / 1024);
    return null;
  }
  const { rules, ...rest } = message;
  return { ...rest, rulesFile: { name: file.name.slice(0, 100), text: await file.text() } };
}

function askName(seat, error) {
  ui.joining = seat;
  $("name-input").value = localStorage.getItem("tienlen:name") || "";
  $("name-error").textContent = error ? error[ui.lang] : "";
  if (!$("name-dialog").open) $("name-dialog").showModal();
  $("name-input").focus();
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
  const opening = box.hidden && Boolean(ui.ended) && !ui.endHidden;
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
  $("review-open").hidden = !ui.connected;
  if (opening && ui.you !== null) (ui.matchOver ? $("rematch") : $("next")).focus(); // the keyboard goes on there
}

function afterSelect() {
  ui.refusal = null;
  if (ui.selected.size && !chosenPlay() && ui.you !== null && ui.view.toAct === ui.you) {
    send({ type: "check", action: [...ui.selected].join(" ") }); // the server says why not
  }
  render();
}

function move(action) {
  ui.sent.add(ui.ply); ui.notice = null;
  send({ type: "move", action, ply: ui.ply }); ui.selected.clear();
}

$("play").onclick = () => { const play = chosenPlay(); if (play) move(play); };
$("pass").onclick = () => move("pass");
$("next").onclick = () => { ui.ended = null; send({ type: "ready" }); render(); $("hand").querySelector(".card")?.focus(); };
$("rematch").onclick = () => { ui.ended = null; send({ type: "rematch" }); render(); };
$("leave").onclick = () => send({ type: "leave" });
$("review-open").onclick = () => openReview(ui.ended.hand);
$("review-close").onclick = () => $("review").close();
$("review-hand").onchange = () => openReview(Number($("review-hand").value), false);
$("review").onclose = () => { ui.review = null; };
$("leave-seat").onclick = () => send({ type: "leave" });
$("hide-end").onclick = () => { ui.endHidden = true; render(); $("results").focus(); };
$("results").onclick = () => { ui.endHidden = false; render(); $("hide-end").focus(); };
$("notice-close").onclick = () => { ui.notice = null; render(); };
$("new").onclick = openOptions;
$("variant").onchange = fillOptions;
$("players").onchange = fillSeats;
$("cancel").onclick = () => $("options").close();
$("options-form").onsubmit = async (event) => {
  event.preventDefault();
  const name = $("opt-name").value.trim();
  if (name) localStorage.setItem("tienlen:name", name);
  $("options-error").textContent = "";
  const message = await withRulesFile(createMessage());
  if (message) send(message);
};
$("take-open").onclick = takeOpenSeat;
$("fill-start").onclick = () => send({ type: "start", host: hostToken() });
$("name-form").onsubmit = (event) => {
  event.preventDefault();
  localStorage.setItem("tienlen:name", $("name-input").value.trim());
  $("name-dialog").close();
  join(ui.joining);
};
$("name-cancel").onclick = () => $("name-dialog").close();
$("copy").onclick = async () => {
  $("share-link").select();
  try { await navigator.clipboard.writeText($("share-link").value); $("copy").textContent = t("copied"); } catch { /* selected: copy by hand */ }
};
$("lang").onclick = () => {
  ui.lang = ui.lang === "en" ? "vi" : "en"; localStorage.setItem("tienlen:lang", ui.lang); render();
  if ($("options").open) fillOptions();
};
window.addEventListener("hashchange", () => location.reload());
// The move clock counts down between messages; only its text changes (a click is never lost).
setInterval(() => {
  if (ui.clockUntil === null) return;
  document.querySelectorAll(".clock").forEach((el) => { el.textContent = clockText(); });
}, 250);
render();
loadOptions();
connect();
