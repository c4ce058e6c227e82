// The private table's page: open or join a table, then play one seat over a websocket.
// The server sends this page its own seat's view only (play/server.py); the page draws it.
"use strict";

const SUITS = { o: "oros", c: "copas", e: "espadas", b: "bastos" };
const RANKS = { S: "sota", C: "caballo", R: "rey" };
const $ = (id) => document.getElementById(id);

function say(text) { $("message").textContent = text || ""; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// -- cards ------------------------------------------------------------------------------
const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_SHAPES = {
  // A coin, a cup, a sword and a club: the four Spanish suits, drawn in currentColor.
  oros: '<circle cx="20" cy="20" r="15" fill="currentColor"/><circle cx="20" cy="20" r="9" fill="none" stroke="#fffdf5" stroke-width="2.5"/>',
  copas: '<path d="M8 6h24c0 11-5 16-10 17v7h7v4H11v-4h7v-7C13 22 8 17 8 6z" fill="currentColor"/>',
  espadas: '<path d="M20 2l4 6v20h-8V8z" fill="currentColor"/><rect x="10" y="27" width="20" height="3.5" rx="1.5" fill="currentColor"/><rect x="18" y="30" width="4" height="8" fill="currentColor"/>',
  bastos: '<path d="M15 37l3-26c-4-2-4-9 2-9s6 7 2 9l3 26z" fill="currentColor"/><circle cx="14" cy="16" r="2.5" fill="currentColor"/><circle cx="26" cy="22" r="2.5" fill="currentColor"/>',
};

function suitIcon(suit) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = SUIT_SHAPES[suit];
  return svg;
}

function cardNode(name, ownHidden) {
  if (name === null || name === undefined) {
    return el("div", { class: "card back", title: "face down", "data-card": "back" });
  }
  const suit = SUITS[name[1]];
  const rank = name[0];
  const label = (RANKS[rank] || rank) + " of " + suit;
  const node = el("div", { class: "card " + suit + (ownHidden ? " own-hidden" : ""),
                           title: label + (ownHidden ? " (face down: only you see it)" : ""),
                           "data-card": name },
                  el("span", { class: "rank" }, rank), suitIcon(suit),
                  el("span", { class: "suit-name" }, suit));
  return node;
}

// -- the table --------------------------------------------------------------------------
let socket = null;
let state = { code: null, token: null, seat: null, deadline: null, timerTicker: null, legal: [],
              timerWho: "", timerWhat: "" };

function seatNode(seat, view) {
  const me = seat.is_viewer;
  const who = seat.human ? (me ? "" : "a player") : "agent " + seat.name;
  const head = el("h3", {}, "Seat " + seat.seat,
                  who ? el("span", { class: "who" }, who) : null,
                  seat.is_bank ? el("span", { class: "badge bank" }, "BANK") : null,
                  me ? el("span", { class: "badge you" }, "you") : null);
  const node = el("div", { class: "seat" + (me ? " me" : "") + (seat.acting ? " acting" : ""),
                           "data-seat": String(seat.seat) }, head,
                  el("div", { class: "line chips" }, "chips " + seat.chips +
                     (seat.last_hand_net !== null && seat.last_hand_net !== undefined
                      ? "  (last hand " + (seat.last_hand_net >= 0 ? "+" : "") + seat.last_hand_net + ")" : "")));
  if (seat.sitting_out) node.append(el("div", { class: "line" }, "sitting out"));
  for (const hand of seat.hands || []) {
    if (!hand.cards.length) {  // before the deal: only the stake, if any
      if (hand.bet) node.append(el("div", { class: "line" }, "bet " + hand.bet));
      continue;
    }
    const cards = el("div", { class: "cards" });
    hand.cards.forEach((name, i) => cards.append(cardNode(name, hand.own_hidden && hand.own_hidden[i])));
    node.append(el("div", { class: "hand" }, cards,
                   el("div", { class: "line total" }, "total " + hand.total_text +
                      (hand.bet ? " · bet " + hand.bet : "") + " · " + hand.status)));
  }
  return node;
}

function renderTimer() {
  const timer = $("timer");
  if (state.deadline === null) { timer.textContent = ""; return; }
  const left = Math.max(0, (state.deadline - performance.now()) / 1000);
  timer.textContent = state.timerWho + ": " + Math.ceil(left).toFixed(0) + " s to " + state.timerWhat;
  timer.classList.toggle("urgent", left < 6);
}

function render(message) {
  const table = message.table;
  const view = message.view;
  $("hand-line").textContent = "table " + table.code + " · rules " + table.rules +
    (view ? " · hand " + view.hand + "/" + view.max_hands + " · " + view.phase +
     " · jackpot " + view.jackpot + " · shoe " + view.shoe : " · waiting for players: free seats " + table.free_seats.join(", "));
  // Without timers nothing plays a free seat, so the table deals only when every seat is held.
  $("start").hidden = table.started || !table.timers;
  $("no-timers").hidden = table.started || table.timers;
  state.deadline = message.seconds_left === null ? null : performance.now() + 1000 * message.seconds_left;
  if (view) {
    state.timerWho = view.your_turn ? "your turn" : "seat " + view.actor;
    state.timerWhat = view.phase === "bet" ? "bet" : "act";
  }
  renderTimer();
  const seats = $("seats");
  seats.replaceChildren();
  seats.dataset.version = view ? String(view.version) : "";
  const actions = $("actions");
  actions.replaceChildren();
  const settlement = $("settlement");
  settlement.replaceChildren();
  settlement.hidden = true;
  if (!view) return;
  for (const seat of view.seats) seats.append(seatNode(seat, view));
  state.legal = view.legal || [];
  if (state.legal.length) {
    actions.append(el("strong", { class: "your-turn" }, "Your turn:"));
    for (const action of state.legal) {
      const button = el("button", { type: "button", "data-action": action.name, title: "key " + action.key },
                        action.label, el("kbd", {}, action.key));
      button.addEventListener("click", () => send({ type: "act", action: action.name }));
      actions.append(button);
    }
  } else {
    actions.append(el("span", { class: "waiting" }, view.over ? "the session is over"
      : "waiting for seat " + view.actor + " (" + view.seats[view.actor].name + ")"));
  }
  if (view.actions && view.actions.length) {
    $("hand-actions").textContent = "this hand: " + view.actions.map((a) =>
      "seat " + a.seat + " " + actionWords(a.name, view.min_bet) + (a.how === "timeout" ? " (timer)" : "")).join(" · ");
  } else {
    $("hand-actions").textContent = "";
  }
  const lines = view.last_settlement || [];
  if (lines.length) {
    settlement.hidden = false;
    settlement.append(el("h3", {}, "Last hand"));
    const list = el("ul", {});
    for (const line of lines) {
      const cards = el("span", { class: "cards small" });
      for (const hand of line.cards || []) for (const name of hand) cards.append(cardNode(name, false));
      list.append(el("li", { "data-seat": String(line.seat) }, cards, " ", line.text));
    }
    settlement.append(list);
  }
}

function actionWords(name, minBet) {
  // "bet_2" is two steps of the minimum bet: "bet 20", as the buttons say (play/session.py).
  const stake = name.match(/^(bet|raise|bid)_(\d+)$/);
  return stake ? stake[1] + " " + Number(stake[2]) * minBet : name.replace(/_/g, " ");
}

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  const action = (state.legal || []).find((a) => a.key === event.key);
  if (action) send({ type: "act", action: action.name });
});

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(state.code));
  socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", token: state.token })));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error") { say(message.message); return; }
    if (message.type === "view") { say(""); render(message); }
  });
  socket.addEventListener("close", () => {
    document.body.dataset.connected = "no";
    if (!$("message").textContent) say("The connection closed: open your seat link again to rejoin.");
  });
  document.body.dataset.connected = "yes";
}

function showTable() {
  $("lobby").hidden = true; $("join").hidden = true; $("table").hidden = false;
  const base = location.origin + "/table/" + state.code;
  $("invite-link").value = base;
  $("seat-link").value = base + "#" + state.token;
  if (!state.timerTicker) state.timerTicker = setInterval(renderTimer, 250);
  connect();
}

function seated(reply) {
  state.code = reply.code; state.token = reply.token; state.seat = reply.seat;
  history.replaceState(null, "", "/table/" + reply.code + "#" + reply.token);
  showTable();
}

async function api(method, path, body) {
  const response = await fetch(path, { method, headers: { "content-type": "application/json" },
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
  return data;
}

// -- lobby and join ---------------------------------------------------------------------
function seatRow(index, value) {
  if (index === 0) return el("li", { "data-you": "yes" }, el("strong", {}, "you"));
  const select = el("select", { class: "seat-kind" });
  for (const [v, text] of [["human", "a friend (by the link)"], ["agent", "an agent"]]) {
    select.append(el("option", { value: v }, text));
  }
  const spec = el("input", { class: "seat-spec", list: "agent-specs",
                             value: value === "human" ? "threshold:5.5" : value, size: "16" });
  select.value = value === "human" ? "human" : "agent";
  spec.hidden = select.value === "human";
  select.addEventListener("change", () => { spec.hidden = select.value === "human"; });
  return el("li", {}, select, " ", spec);
}

function seatEntries() {
  return [...document.querySelectorAll("#seat-list li")].map((li) =>
    li.dataset.you || li.querySelector(".seat-kind").value === "human" ? "human"
      : li.querySelector(".seat-spec").value);
}

async function showLobby() {
  $("lobby").hidden = false;
  const options = await api("GET", "/api/options");
  for (const preset of options.presets) $("rules").append(el("option", { value: preset }, preset));
  const specs = el("datalist", { id: "agent-specs" });
  for (const example of options.examples) specs.append(el("option", { value: example }));
  document.body.append(specs);
  if (options.models.length) $("offered-models").textContent = ", or a trained model this server offers: " + options.models.join(", ");
  const list = $("seat-list");
  list.append(seatRow(0, "human"), seatRow(1, "threshold:5.5"));
  $("add-seat").addEventListener("click", () => {
    if (list.children.length < options.max_seats) list.append(seatRow(list.children.length, "threshold:5.5"));
  });
  $("remove-seat").addEventListener("click", () => {
    if (list.children.length > options.min_seats) list.lastElementChild.remove();
  });
  $("open-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      seated(await api("POST", "/api/tables", { rules: $("rules").value, seats: seatEntries(),
                                                 hands: Number($("hands").value),
                                                 timers: $("timers").value === "on" }));
    } catch (error) { say(error.message); }
  });
  $("join-code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const target = joinTarget($("join-code").value.trim());
    if (target.error) say(target.error); else location.href = target.path;
  });
}

// A table code is secrets.token_urlsafe's (play/tables.py); a seat link adds "#TOKEN".
const JOIN_TEXT = /^(?:[^#]*\/table\/)?([A-Za-z0-9_-]+)\/?(#[A-Za-z0-9_-]+)?$/;

function joinTarget(text) {
  // The page a typed code, or a pasted invite or seat link (http://HOST/table/CODE[#TOKEN]),
  // leads to: {path}; or {error} saying what to type instead.
  if (!text) return { error: "Type the table code, or paste the invite link, to join a table." };
  const found = text.match(JOIN_TEXT);
  if (!found) {
    const shown = text.length > 40 ? text.slice(0, 40) + "…" : text;
    return { error: "“" + shown + "” is neither a table code nor an invite link: a code is " +
                    "the part of the invite link after /table/." };
  }
  return { path: "/table/" + found[1] + (found[2] || "") };
}

async function showJoin() {
  $("join").hidden = false;
  $("join-table-code").textContent = state.code;
  try {
    const info = await api("GET", "/api/tables/" + encodeURIComponent(state.code));
    const list = el("ul", {});
    for (const seat of info.seats) {
      list.append(el("li", {}, "seat " + seat.seat + ": " +
        (seat.kind === "human" ? (seat.held ? "a player" : "free") : "agent " + seat.agent)));
    }
    $("join-seats").replaceChildren(el("p", {}, "rules " + info.rules + " · " + info.hands + " hands"), list);
  } catch (error) { say(error.message); $("take-seat").disabled = true; }
  $("take-seat").addEventListener("click", async () => {
    try { seated(await api("POST", "/api/tables/" + encodeURIComponent(state.code) + "/seats")); }
    catch (error) { say(error.message); }
  });
}

$("show-seat-link").addEventListener("click", () => {
  const input = $("seat-link");
  input.type = input.type === "password" ? "text" : "password";
});
$("start").addEventListener("click", () => send({ type: "start" }));

const match = location.pathname.match(/^\/table\/([^/]+)$/);
if (match) {
  state.code = decodeURIComponent(match[1]);
  state.token = location.hash.length > 1 ? location.hash.slice(1) : null;
  if (state.token) showTable(); else showJoin();
} else {
  showLobby();
}
