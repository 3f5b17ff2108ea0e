// Open Market storefront. Every page works without this script; it adds endless scrolling, the
// view switch without a reload, the photo carousel's arrows and keys, the delete dialog, photo
// previews shrunk to 300 KB before upload, form errors shown without losing chosen photos, and the
// inspector's new requests as they arrive.
"use strict";

document.documentElement.classList.replace("no-js", "js");

const imageByteBudget = 300 * 1024;

// The page's phrases in its own language; `{name}` in a phrase is filled from `values`.
const phrases = JSON.parse(document.getElementById("market-words")?.textContent || "{}");
function say(key, values = {}) {
  return (phrases[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}
const language = document.documentElement.lang || "ko";

function grouped(number) {
  return new Intl.NumberFormat("en-US").format(number);
}

function parseHTML(text) {
  return new DOMParser().parseFromString(text, "text/html");
}

// MARK: Catalogue

// A card's photo that could not be fetched (offline, a failing server) shows a still sign instead
// of a broken picture over a spinner, and a line above the cards offers to fetch it again, as
// coming back online does.
function setUpThumbnails() {
  const notice = document.querySelector("[data-photos-failed]");
  if (!notice) return;
  const failed = (image) => {
    image.closest(".thumb").classList.add("failed");
    notice.hidden = false;
  };
  const retry = () => {
    notice.hidden = true;
    for (const thumb of document.querySelectorAll(".thumb.failed")) {
      thumb.classList.remove("failed");
      const image = thumb.querySelector("img");
      const source = image.src;
      image.removeAttribute("src");
      image.src = source;
    }
  };
  document.addEventListener("error", (event) => {
    if (event.target instanceof HTMLImageElement && event.target.closest(".thumb")) failed(event.target);
  }, true);
  // Those that failed before this script ran.
  for (const image of document.querySelectorAll(".thumb img")) {
    if (image.complete && image.naturalWidth === 0) failed(image);
  }
  notice.querySelector("button").addEventListener("click", retry);
  window.addEventListener("online", retry);
}

function setUpCatalogue() {
  const list = document.querySelector("[data-products]");
  if (!list) return;
  const loading = document.querySelector("[data-loading]");
  const failed = document.querySelector("[data-load-failed]");
  const announce = document.querySelector("[data-announce]");
  const toggle = document.querySelector("[data-view-toggle]");
  const refresh = document.querySelector("[data-refresh]");
  let pager = document.querySelector("[data-pager]");
  // Page numbers asked for or shown, so that no page is ever loaded twice, and the first of them.
  const pages = new Set([list.dataset.page]);
  let firstPage = Number(list.dataset.page);
  let busy = false;

  toggle.addEventListener("click", (event) => {
    event.preventDefault();
    const grid = list.classList.contains("list");
    list.classList.toggle("grid", grid);
    list.classList.toggle("list", !grid);
    document.cookie = `market_view=${grid ? "grid" : "list"}; path=/; max-age=31536000; samesite=lax`;
    const other = grid ? "list" : "grid";
    toggle.value = other;
    const name = other === "grid" ? toggle.dataset.gridName : toggle.dataset.listName;
    toggle.setAttribute("aria-label", name);
    toggle.title = name;
    toggle.querySelector(".icon").className = `icon icon-${other}`;
  });

  // The address says which page the person has reached, so Back and reload return there.
  function rememberPlace(url) {
    const place = new URL(url, location.href);
    place.searchParams.delete("after");
    if (place.searchParams.get("page") === "1") place.searchParams.delete("page");
    history.replaceState(history.state, "", place.pathname + place.search);
  }

  // A page of the catalogue as the server makes it, parsed.
  async function fetchPage(url) {
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(`status ${response.status}`);
    return parseHTML(await response.text());
  }

  // The cards of `cards` that the list does not show yet, taken into this document.
  function unshown(cards) {
    const shown = new Set([...list.children].map((card) => card.dataset.id));
    return [...cards.children].filter((card) => !shown.has(card.dataset.id)).map((card) => document.adoptNode(card));
  }

  async function load(url, { replacing = false } = {}) {
    busy = true;
    failed.hidden = true;
    loading.classList.add("busy");
    try {
      const page = await fetchPage(url);
      const cards = page.querySelector("[data-products]");
      if (replacing) {
        list.replaceChildren();
        pages.clear();
      }
      pages.add(cards.dataset.page);
      const added = unshown(cards);
      list.append(...added);
      const next = document.adoptNode(page.querySelector("[data-pager]"));
      pager.replaceWith(next);
      pager = next;
      rememberPlace(url);
      if (!replacing && added.length > 0) announce.textContent = say("added", { count: added.length });
      watch();
      return true;
    } catch {
      failed.hidden = false;
      return false;
    } finally {
      loading.classList.remove("busy");
      busy = false;
    }
  }

  function nextPage() {
    const link = pager.querySelector("[data-next-page]");
    if (!link || busy) return;
    const number = new URL(link.href).searchParams.get("page");
    if (pages.has(number)) return;
    pages.add(number);
    load(link.href).then((loaded) => {
      if (!loaded) pages.delete(number);
    });
  }

  // Asks for the next page while the end of the list is still well below the screen.
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) nextPage();
    },
    { rootMargin: "0px 0px 800px 0px" },
  );
  function watch() {
    observer.disconnect();
    observer.observe(pager);
  }
  watch();

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-next-page]")) {
      event.preventDefault();
      nextPage();
    }
  });
  failed.querySelector("[data-retry]").addEventListener("click", nextPage);

  refresh.addEventListener("click", async (event) => {
    event.preventDefault();
    if (busy) return;
    window.scrollTo({ top: 0 });
    await load(refresh.href, { replacing: true });
    firstPage = Number(list.dataset.page);
  });

  // Where the person was is kept in the history entry: the first page the list holds and the card
  // at the top of the screen (or the one opened). Coming back without the browser's page cache (a
  // reload, or an iPhone that dropped it) fetches the pages before this one again and brings that
  // card back into view; the address alone still shows the page reached.
  // The card and how far from the top of the screen it was, so that the screen comes back as it was.
  const keepPlace = (card) => {
    if (!card) return;
    const offset = Math.round(card.getBoundingClientRect().top);
    try {
      history.replaceState({ ...history.state, firstPage, card: card.dataset.id, offset }, "");
    } catch {
      // Safari refuses more than 100 changes in 30 s; the next pause in scrolling keeps it.
    }
  };
  const keepCardAtTop = () => keepPlace([...list.children].find((card) => card.getBoundingClientRect().bottom > 0));
  let keeping = 0;
  window.addEventListener("scroll", () => {
    clearTimeout(keeping);
    keeping = setTimeout(keepCardAtTop, 400);
  }, { passive: true });
  window.addEventListener("pagehide", keepCardAtTop);
  list.addEventListener("click", (event) => keepPlace(event.target.closest("[data-id]")));

  async function restorePlace(place) {
    for (let number = Number(list.dataset.page) - 1; number >= place.firstPage; number -= 1) {
      const url = new URL(location.href);
      url.searchParams.set("page", String(number));
      try {
        list.prepend(...unshown((await fetchPage(url)).querySelector("[data-products]")));
      } catch {
        break;
      }
      pages.add(String(number));
      firstPage = number;
    }
    const card = list.querySelector(`[data-id="${CSS.escape(String(place.card))}"]`);
    if (card) window.scrollBy(0, card.getBoundingClientRect().top - (Number(place.offset) || 0));
  }
  const place = history.state;
  if (place?.card && Number.isInteger(place.firstPage)) {
    history.scrollRestoration = "manual";
    restorePlace(place);
  }
}

// MARK: Product photos

function setUpCarousels() {
  for (const carousel of document.querySelectorAll("[data-carousel]")) {
    const slides = carousel.querySelector("[data-slides]");
    const count = slides.children.length;
    const dots = [...carousel.querySelectorAll("[data-dot]")];
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    let current = 0;

    const show = (index) => {
      const target = Math.max(0, Math.min(count - 1, index));
      slides.scrollTo({ left: target * slides.clientWidth, behavior: reduceMotion ? "auto" : "smooth" });
    };
    const update = () => {
      dots.forEach((dot, index) => {
        if (index === current) dot.setAttribute("aria-current", "true");
        else dot.removeAttribute("aria-current");
      });
    };
    slides.addEventListener(
      "scroll",
      () => {
        const index = Math.round(slides.scrollLeft / slides.clientWidth);
        if (index !== current) {
          current = index;
          update();
        }
      },
      { passive: true },
    );
    slides.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") show(current + 1);
      else if (event.key === "ArrowLeft") show(current - 1);
      else if (event.key === "Home") show(0);
      else if (event.key === "End") show(count - 1);
      else return;
      event.preventDefault();
    });
    carousel.querySelector("[data-previous]")?.addEventListener("click", () => show(current - 1));
    carousel.querySelector("[data-next]")?.addEventListener("click", () => show(current + 1));
    dots.forEach((dot, index) =>
      dot.addEventListener("click", (event) => {
        event.preventDefault();
        show(index);
      }),
    );
  }
}

// MARK: Dialogs

function setUpDialogs() {
  for (const opener of document.querySelectorAll("[data-open-dialog]")) {
    const dialog = document.getElementById(opener.dataset.openDialog);
    if (!dialog || typeof dialog.showModal !== "function") continue;
    opener.addEventListener("click", (event) => {
      event.preventDefault();
      dialog.showModal();
      dialog.querySelector("input:not([type=hidden])")?.focus();
    });
    for (const closer of dialog.querySelectorAll("[data-close-dialog]")) {
      closer.addEventListener("click", (event) => {
        event.preventDefault();
        dialog.close();
      });
    }
    dialog.addEventListener("close", () => opener.focus());
  }
}

// MARK: Forms

// Sends the form in the background. Success moves on to the page the server names; a refusal
// shows the server's messages beside their fields and keeps everything typed and chosen.
function enhanceForm(form) {
  const submit = form.querySelector("[data-submit]");
  const status = form.querySelector("[data-status]");
  const tell = (text) => {
    if (!status) return;
    status.textContent = text;
    if (text) status.scrollIntoView({ block: "nearest" });
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.dataset.busy) return;
    form.dataset.busy = "true";
    if (submit) submit.disabled = true;
    try {
      const body = form.formBody ? await form.formBody() : new FormData(form);
      tell(say("sending"));
      const response = await fetch(form.action, {
        method: "POST",
        body,
        headers: { Accept: "text/html", "X-Requested-With": "fetch" },
      });
      const next = response.headers.get("Market-Location");
      if (next) {
        // The page that took the form leaves the history: Back never shows it sent, ready to send twice.
        form.dataset.sent = "true";
        form.dispatchEvent(new Event("sent"));
        tell("");
        window.location.replace(next);
        return;
      }
      const page = parseHTML(await response.text());
      const answer = page.querySelector(`form[action="${form.getAttribute("action")}"]`);
      if (!answer) {
        document.title = page.title;
        document.body.replaceWith(document.adoptNode(page.body));
        return;
      }
      tell("");
      showErrors(form, answer);
    } catch {
      tell(say("offline"));
    } finally {
      delete form.dataset.busy;
      if (submit) submit.disabled = false;
    }
  });
}

// A page the browser kept and shows again after Back: a form already sent is never offered as it
// was, and a catalogue is read again once this person has changed the market since it was shown
// (a product deleted from its card is not offered from memory); otherwise it is kept as it was,
// scrolled as far as the person had come.
const shownAt = Date.now();
document.addEventListener("submit", (event) => {
  if (event.target.method === "post") sessionStorage.setItem("market-changed", String(Date.now()));
}, true);
// Work that takes a while (a reset refills the demo) shows that it goes on, and for how long,
// so that nobody sends it again or reloads; the page that follows says when it is done.
document.querySelectorAll("form[data-long-work]").forEach((form) => {
  form.addEventListener("submit", () => {
    form.querySelector("button[type=submit]").disabled = true;
    const working = form.querySelector("[data-working]");
    const elapsed = working.querySelector("[data-elapsed]");
    const started = Date.now();
    const tick = () => {
      const seconds = Math.round((Date.now() - started) / 1000);
      elapsed.textContent = language === "ko" ? `(${seconds}초)` : `(${seconds} s)`;
    };
    tick();
    working.hidden = false;
    setInterval(tick, 1000);
  });
});

window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  // A sort chosen on the way out shows what this page's address says again.
  document.querySelectorAll("form[data-shelf]").forEach((form) => form.reset());
  const changed = Number(sessionStorage.getItem("market-changed") || 0) > shownAt;
  if (document.querySelector("form[data-sent]") || (changed && document.querySelector("[data-products]"))) {
    window.location.reload();
  }
});

function showErrors(form, answer) {
  let first = null;
  for (const slot of form.querySelectorAll("[data-error-for]")) {
    const name = slot.dataset.errorFor;
    const source = answer.querySelector(`[data-error-for="${name}"]`);
    const text = source && !source.hidden ? source.textContent.trim() : "";
    slot.textContent = text;
    slot.hidden = text === "";
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLElement) {
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    if (text && !first) first = input instanceof HTMLElement ? input : slot;
  }
  if (first) {
    if (!first.matches("input, select, textarea")) first.tabIndex = -1;
    (first.closest("[data-field]") ?? first).scrollIntoView({ block: "center" });
    first.focus({ preventScroll: true });
  }
}

// MARK: Registering and editing

function characterCount(text) {
  if (typeof Intl.Segmenter === "function") return [...new Intl.Segmenter().segment(text)].length;
  return [...text].length;
}

// An amount as typed ("12,000", "12,000원", "₩12,000", "5만원", "1.5만", "1억 2천만"), or null; the
// server reads the same (ProductEntry.amount).
function amount(text) {
  const units = [["억", 1e8], ["만", 1e4], ["천", 1e3], ["백", 100], ["십", 10]];
  const counted = (text) => {
    const found = units.find(([unit]) => text.includes(unit));
    if (!found) {
      const match = text.match(/^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/);
      return match ? Number(match[0].replaceAll(",", "")) : null;
    }
    const [unit, scale] = found;
    const at = text.indexOf(unit);
    const [before, after] = [text.slice(0, at).trim(), text.slice(at + 1).trim()];
    const count = before === "" ? 1 : counted(before);
    const rest = after === "" ? 0 : counted(after);
    return count === null || rest === null || rest >= scale ? null : count * scale + rest;
  };
  const value = counted(text.trim().replace(/^(US\$|₩|\$)/, "").replace(/원$/, "").trim());
  if (value === null) return null;
  const whole = Math.round(value);
  return Math.abs(value - whole) < 1e-6 ? whole : null;
}

function money(value, currency) {
  if (currency === "USD") return `US$${grouped(value)}`;
  return language === "ko" ? `${grouped(value)}원` : `₩${grouped(value)}`;
}

function setUpProductForm(form) {
  const description = form.querySelector("#description");
  const count = form.querySelector("[data-count]");
  const limit = Number(description.dataset.limit);
  const showCount = () => {
    const used = characterCount(description.value);
    count.textContent = used;
    count.parentElement.classList.toggle("over", used > limit);
  };
  description.addEventListener("input", showCount);
  showCount();

  // Amounts show their thousands grouped once typed, and the buyer's price follows price and discount.
  const price = form.querySelector("#price");
  const discount = form.querySelector("#discount");
  const currency = form.querySelector("#currency");
  const buyerPays = form.querySelector("[data-buyer-pays]");
  const showBuyerPrice = () => {
    const list = amount(price.value);
    const off = discount.value.trim() === "" ? 0 : amount(discount.value);
    // Said while typing, before the market refuses it on sending.
    const tooMuch = list !== null && off !== null && off > list;
    buyerPays.classList.toggle("warning", tooMuch);
    buyerPays.textContent = tooMuch
      ? say("discountOverPrice", { price: money(list, currency.value) })
      : list !== null && off !== null ? say("buyerPays", { amount: money(list - off, currency.value) }) : "";
  };
  for (const input of form.querySelectorAll("[data-amount]")) {
    input.addEventListener("blur", () => {
      const value = amount(input.value);
      if (value !== null) input.value = grouped(value);
    });
  }
  for (const input of [price, discount, currency]) {
    input.addEventListener("input", showBuyerPrice);
    input.addEventListener("change", showBuyerPrice);
  }

  if (form.hasAttribute("data-edit")) {
    for (const field of form.querySelectorAll("[data-original]")) {
      const same = () => field.value === field.dataset.original ||
        (field.matches("[data-amount]") && amount(field.value) !== null && amount(field.value) === amount(field.dataset.original));
      const mark = () => field.closest("[data-field]").classList.toggle("changed", !same());
      field.addEventListener("input", mark);
      field.addEventListener("change", mark);
    }
  }
  setUpPhotoPicker(form);
  if (!form.hasAttribute("data-edit")) keepDraft(form);
}

// What is typed into a new product survives a reload: kept in this tab as it is typed, put back
// into a form the server sent untouched, and forgotten once the product is registered. No secret
// is ever kept. (The photos are kept by `keptPhotos`.)
function draftKey(form) {
  return `draft ${form.getAttribute("action")}`;
}

function keepDraft(form) {
  const key = draftKey(form);
  const fields = [...form.querySelectorAll("input[name]:not([type=file]):not([type=hidden]):not([type=password]), textarea[name], select[name]")];
  const sent = (field) => field.tagName === "SELECT"
    ? (field.querySelector("option[selected]") ?? field.options[0])?.value
    : field.defaultValue;
  const draft = JSON.parse(sessionStorage.getItem(key) ?? "null");
  if (draft && fields.every((field) => field.value === sent(field))) {
    for (const field of fields) {
      if (!(field.name in draft) || draft[field.name] === field.value) continue;
      field.value = draft[field.name];
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  const save = () => sessionStorage.setItem(key, JSON.stringify(Object.fromEntries(fields.map((field) => [field.name, field.value]))));
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("sent", () => sessionStorage.removeItem(key));
}

function size(bytes) {
  return bytes >= 1024 * 1024
    ? say("megabytes", { size: (bytes / 1024 / 1024).toFixed(1) })
    : say("kilobytes", { size: Math.max(1, Math.ceil(bytes / 1024)) });
}

// What the first bytes say the file is, whatever its name says: only photos are taken.
async function isPicture(file) {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const starts = (...bytes) => bytes.every((byte, index) => head[index] === byte);
  const jpeg = starts(0xff, 0xd8, 0xff);
  const png = starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  const webp = starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...head.slice(8, 12)) === "WEBP";
  // An iPhone's HEIC: an ISO media file of a HEIF brand. The market turns it into a JPEG.
  const heif = String.fromCharCode(...head.slice(4, 8)) === "ftyp"
    && ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(String.fromCharCode(...head.slice(8, 12)));
  return jpeg || png || webp || heif;
}

// The photos chosen for a new product survive a reload too: kept in this browser's IndexedDB
// (which holds files, as sessionStorage does not) under this tab's own name, so another tab or
// another person at the same browser never finds them; forgotten once the product is registered,
// and a closed tab's left behind after a day.
const keptPhotos = (() => {
  const tab = sessionStorage.getItem("market tab") ?? `${Date.now()}-${Math.random()}`;
  sessionStorage.setItem("market tab", tab);
  let database;
  const open = () => (database ??= new Promise((resolve, reject) => {
    const request = indexedDB.open("market drafts", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("photos");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }));
  const ask = async (mode, asking) => {
    const request = asking((await open()).transaction("photos", mode).objectStore("photos"));
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  };
  const key = (form) => `${tab} ${form.getAttribute("action")}`;
  const day = 24 * 60 * 60 * 1000;
  return {
    async get(form) {
      const kept = await ask("readonly", (store) => store.get(key(form))).catch(() => undefined);
      return kept?.photos ?? [];
    },
    keep: (form, photos) => ask("readwrite", (store) => store.put({ photos, at: Date.now() }, key(form))).catch(() => {}),
    forget: (form) => ask("readwrite", (store) => store.delete(key(form))).catch(() => {}),
    sweep: () => open().then((database) => {
      const walk = database.transaction("photos", "readwrite").objectStore("photos").openCursor();
      walk.onsuccess = () => {
        const cursor = walk.result;
        if (!cursor) return;
        if (Date.now() - cursor.value.at > day) cursor.delete();
        cursor.continue();
      };
    }).catch(() => {}),
  };
})();

function setUpPhotoPicker(form) {
  const input = form.querySelector("[data-image-picker]");
  const previews = form.querySelector("[data-previews]");
  const error = form.querySelector('[data-error-for="images"]');
  const limit = Number(input.dataset.limit);
  const count = form.querySelector("[data-photo-count]");
  const photos = [];

  const tell = (text) => {
    error.textContent = text;
    error.hidden = text === "";
  };
  const render = () => {
    count.textContent = photos.length === 0 ? say("noPhotoChosen") : say("photosChosen", { count: photos.length });
    previews.replaceChildren(
      ...photos.map((photo, index) => {
        const item = document.createElement("li");
        const image = document.createElement("img");
        image.src = photo.url;
        image.alt = say("chosenPhoto", { number: index + 1, name: photo.name });
        // A browser that cannot show a HEIC photo shows its name instead, and says what becomes of
        // it: the market takes it and stores it as JPEG.
        image.addEventListener("error", () => {
          const name = document.createElement("span");
          name.className = "preview-name";
          name.textContent = say("storedAsJPEG", { name: photo.name });
          image.replaceWith(name);
        });
        const label = document.createElement("span");
        label.textContent = size(photo.blob.size);
        label.dataset.size = photo.blob.size;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = say("remove");
        remove.setAttribute("aria-label", say("removePhoto", { number: index + 1 }));
        remove.addEventListener("click", () => {
          URL.revokeObjectURL(photo.url);
          photos.splice(index, 1);
          tell("");
          render();
          keep();
          (previews.querySelectorAll("button")[Math.min(index, photos.length - 1)] ?? input).focus();
        });
        item.append(image, label, remove);
        return item;
      }),
    );
  };

  // A new product's photos are kept for a reload; an edit's start from the product's own.
  const drafting = !form.hasAttribute("data-edit");
  const keep = () => drafting && keptPhotos.keep(form, photos.map(({ blob, name }) => ({ blob, name })));
  render();
  if (drafting) {
    keptPhotos.sweep();
    // No draft in the tab: the product was registered (the page left before its photos could be
    // forgotten) or none was begun.
    if (sessionStorage.getItem(draftKey(form)) === null) {
      keptPhotos.forget(form);
    } else {
      keptPhotos.get(form).then((kept) => {
        for (const { blob, name } of kept.slice(0, limit - photos.length)) {
          photos.push({ blob, name, url: URL.createObjectURL(blob) });
        }
        if (kept.length > 0) render();
      });
    }
  }
  input.addEventListener("change", async () => {
    const files = [...input.files];
    input.value = "";
    const problems = [];
    const leftOut = [];
    for (const file of files) {
      if (photos.length >= limit) {
        leftOut.push(file.name);
        continue;
      }
      if (!(await isPicture(file))) {
        problems.push(say("notAPicture", { name: file.name }));
        continue;
      }
      const blob = await shrink(file).catch(() => file);
      photos.push({ blob, name: file.name, url: URL.createObjectURL(blob) });
      render();
    }
    if (leftOut.length === 1) problems.push(say("onePhotoLeftOut", { limit, name: leftOut[0] }));
    if (leftOut.length > 1) {
      problems.push(say("photosLeftOut", { limit, count: leftOut.length, names: leftOut.join(", ") }));
    }
    keep();
    tell(problems.join(" "));
  });

  form.formBody = async () => {
    const body = new FormData(form);
    body.delete("images");
    photos.forEach((photo, index) => body.append("images", photo.blob, `photo-${index + 1}.jpg`));
    return body;
  };
}

// Re-encodes a picture as JPEG, smaller and smaller, until it fits the byte budget the apps use.
async function shrink(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  let scale = Math.min(1, 2048 / Math.max(bitmap.width, bitmap.height));
  if (file.size <= imageByteBudget && scale === 1) return file;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.85, 0.7, 0.55]) {
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
      if (blob && blob.size <= imageByteBudget) return blob;
    }
    scale *= 0.7;
  }
  throw new Error("the picture does not shrink to the budget");
}

// A choice of order applies as soon as it is made; without scripts, the form's own button does it.
function setUpShelf() {
  document.querySelectorAll("[data-submit-on-change]").forEach((control) => {
    control.addEventListener("change", () => control.form.requestSubmit());
  });
}

// Names that match what the person has typed, offered after a short pause. Never more than one
// request in flight: what is typed meanwhile is asked for when the answer comes.
function setUpSuggestions(form) {
  const input = form.querySelector("input[role=combobox]");
  const list = form.querySelector("[role=listbox]");
  let timer = null;
  let asking = false;
  let active = -1;

  function options() {
    return [...list.querySelectorAll("[role=option]")];
  }
  function close() {
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }
  function choose(name) {
    input.value = name;
    close();
    form.requestSubmit();
  }
  function show(names) {
    list.replaceChildren(
      ...names.map((name, index) => {
        const option = document.createElement("li");
        option.id = `suggestion-${index}`;
        option.setAttribute("role", "option");
        option.textContent = name;
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          choose(name);
        });
        return option;
      }),
    );
    active = -1;
    list.hidden = names.length === 0;
    input.setAttribute("aria-expanded", String(names.length > 0));
  }
  async function ask() {
    const typed = input.value.trim();
    if (!typed) return close();
    asking = true;
    try {
      const answer = await fetch(`/suggestions?q=${encodeURIComponent(typed)}`, { headers: { Accept: "application/json" } });
      if (answer.ok && document.activeElement === input && input.value.trim() === typed) show(await answer.json());
    } catch {
      // Suggestions are a help, not a need: the search itself still works.
    } finally {
      asking = false;
    }
    if (input.value.trim() !== typed && document.activeElement === input) ask();
  }
  function highlight(index) {
    const all = options();
    if (all.length === 0) return;
    active = (index + all.length) % all.length;
    all.forEach((option, at) => option.setAttribute("aria-selected", String(at === active)));
    input.setAttribute("aria-activedescendant", all[active].id);
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!asking) ask();
    }, 250);
  });
  input.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      highlight(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      choose(options()[active].textContent);
    } else if (event.key === "Escape") {
      close();
    }
  });
  input.addEventListener("blur", close);
}

// MARK: Inspector

// The inspector's first page shows each new request as it arrives, from the market's server-sent
// events; EventSource reconnects by itself and carries on after the last request it saw.
// Moments come as the time of day in UTC (`<time datetime>`): the reader reads them in their own zone.
const timeOfDay = new Intl.DateTimeFormat(language, {
  hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
});
const wholeMoment = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "long" });
function localTimes(root) {
  for (const time of root.querySelectorAll("time[datetime]")) {
    const moment = new Date(time.dateTime);
    if (Number.isNaN(moment.getTime())) continue;
    time.textContent = timeOfDay.format(moment);
    time.title = wholeMoment.format(moment);
  }
}

function setUpLiveInspector(status) {
  const list = document.querySelector("ol.requests");
  if (!list || !window.EventSource) return;
  let arrived = 0;
  const events = new EventSource(status.dataset.live);
  status.hidden = false;
  status.textContent = say("liveOn");
  events.addEventListener("open", () => {
    status.textContent = arrived ? say("liveArrived", { count: grouped(arrived) }) : say("liveOn");
  });
  events.addEventListener("message", (event) => {
    const row = parseHTML(event.data).body.firstElementChild;
    if (!row) return;
    row.classList.add("arrived");
    localTimes(row);
    list.prepend(row);
    row.querySelectorAll("form[data-replay]").forEach(setUpReplay);
    document.querySelector(".inspector .empty")?.remove();
    countArrival(document.querySelector(".inspector .summary"));
    arrived += 1;
    status.textContent = say("liveArrived", { count: grouped(arrived) });
  });
  events.addEventListener("error", () => {
    status.textContent = say("liveLost");
  });
}

// The first page's "1–36 of 36" counts each request that arrives live at its top.
function countArrival(summary) {
  if (!summary) return;
  const count = (name) => Number(summary.dataset[name] || 0) + 1;
  summary.dataset.to = count("to");
  summary.dataset.total = count("total");
  summary.textContent = summary.dataset.showing.replace(/\{(\w+)\}/g, (whole, name) =>
    name in summary.dataset ? grouped(Number(summary.dataset[name])) : whole);
  summary.hidden = false;
}

// A recorded request sent again from the browser, as recorded, with the secret typed for this one
// send where the record shows it masked; the new answer goes beside the old one.
function setUpReplay(form) {
  const request = JSON.parse(form.dataset.replay);
  const shown = form.closest("details").querySelector(".replayed");
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const secret = form.elements.secret?.value ?? "";
    const unmask = (text, as = (value) => value) => text.split(request.mask).join(as(secret));
    const headers = new Headers();
    for (const [name, value] of request.headers) headers.append(name, unmask(value));
    const started = performance.now();
    shown.hidden = false;
    try {
      const answer = await fetch(unmask(request.path, encodeURIComponent), {
        method: request.method, headers, credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer",
        // A request without a body (every GET and DELETE) has none in the record either.
        body: request.body == null ? undefined : unmask(request.body, (value) => JSON.stringify(value).slice(1, -1)),
      });
      const type = answer.headers.get("Content-Type") ?? "";
      const body = type.startsWith("image/") ? await answer.blob() : await answer.text();
      shown.querySelector(".status-line").textContent = say("replayStatus", {
        status: answer.status, milliseconds: Math.round(performance.now() - started),
      });
      if (typeof body === "string") {
        showReplayedText(shown, body);
      } else {
        await showReplayedPicture(shown, body, type);
      }
    } catch (error) {
      shown.querySelector(".status-line").textContent = say("replayFailed", { reason: error.message });
      showReplayedText(shown, "");
    }
    if (form.elements.secret) form.elements.secret.value = "";
  });
}

function showReplayedText(shown, text) {
  const picture = shown.querySelector("img");
  if (picture.src) URL.revokeObjectURL(picture.src);
  picture.hidden = true;
  shown.querySelector("pre").textContent = text.slice(0, 16384);
}

// A picture answered again is described and shown small, as the recorded answer is, never read as text.
async function showReplayedPicture(shown, blob, type) {
  const words = JSON.parse(document.querySelector("[data-picture-words]")?.dataset.pictureWords ?? "{}");
  const picture = shown.querySelector("img");
  if (picture.src) URL.revokeObjectURL(picture.src);
  picture.src = URL.createObjectURL(blob);
  const values = {
    type: words.types?.[type.slice("image/".length).split(";")[0].trim()] ?? type,
    bytes: grouped(blob.size),
  };
  let phrase = words.bytes ?? "{type}, {bytes}";
  try {
    await picture.decode();
    Object.assign(values, { width: grouped(picture.naturalWidth), height: grouped(picture.naturalHeight) });
    phrase = words.picture ?? phrase;
  } catch {
    // A picture this browser cannot draw (HEIC) is still described by its type and size.
  }
  const said = phrase.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
  shown.querySelector("pre").textContent = said;
  picture.alt = said;
  picture.hidden = false;
}

// MARK: Class board

// The class board and its projector view follow the class: the page reads itself again every few
// seconds and changes only what changed, team by team, keeping the reader's place on the page.
function setUpLiveBoard(board) {
  const updated = board.querySelector(".board-updated");
  async function refresh() {
    try {
      const answer = await fetch(location.href, { cache: "no-store", headers: { Accept: "text/html" } });
      const fresh = answer.ok ? parseHTML(await answer.text()).querySelector("[data-live-board]") : null;
      if (fresh) {
        localTimes(fresh);
        keepingPlace(board, () => follow(board, fresh));
        const time = new Date().toLocaleTimeString(language, { hour12: false });
        updated.textContent = updated.dataset.updatedWords.replace("{time}", time);
      }
    } catch {
      // Offline for a moment: the next reading catches up.
    } finally {
      setTimeout(refresh, 5000);
    }
  }
  setTimeout(refresh, 5000);
}

// Each part of the board (the tallies, each team's card) takes the fresh one's content when it differs;
// cards come and go in the fresh order.
function follow(board, fresh) {
  for (const part of fresh.querySelectorAll("[data-board-part]:not([data-board-part^='team-'])")) {
    const current = board.querySelector(`[data-board-part="${part.dataset.boardPart}"]`);
    if (current && part.dataset.boardPart !== "teams" && current.innerHTML !== part.innerHTML) {
      current.innerHTML = part.innerHTML;
    }
  }
  board.querySelector("[data-board-part=empty]")?.toggleAttribute("hidden", !fresh.querySelector("[data-board-part=empty]"));
  const teams = board.querySelector("[data-board-part=teams]");
  const freshTeams = fresh.querySelector("[data-board-part=teams]");
  if (!teams || !freshTeams) return;
  const cards = new Map([...teams.children].map((card) => [card.dataset.boardPart, card]));
  let previous = null;
  for (const card of [...freshTeams.children]) {
    let current = cards.get(card.dataset.boardPart);
    if (current) {
      if (current.innerHTML !== card.innerHTML) current.innerHTML = card.innerHTML;
      cards.delete(card.dataset.boardPart);
    } else {
      current = document.adoptNode(card);
    }
    if (current.previousElementSibling !== previous || !current.isConnected) {
      previous ? previous.after(current) : teams.prepend(current);
    }
    previous = current;
  }
  for (const gone of cards.values()) gone.remove();
}

// Whatever `change` does to the board, the first part the reader sees stays where it was on the screen.
function keepingPlace(board, change) {
  const parts = [...board.querySelectorAll("[data-board-part^='team-'], .tallies > li")];
  const anchor = parts.find((part) => part.getBoundingClientRect().bottom > 0);
  const before = anchor?.getBoundingClientRect().top;
  change();
  if (anchor?.isConnected) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
}

localTimes(document);
setUpCatalogue();
setUpThumbnails();
setUpShelf();
document.querySelectorAll("form[data-suggest]").forEach(setUpSuggestions);
setUpCarousels();
setUpDialogs();
document.querySelectorAll("form[data-enhance]").forEach(enhanceForm);
document.querySelectorAll("form[data-product-form]").forEach(setUpProductForm);
document.querySelectorAll("[data-live]").forEach(setUpLiveInspector);
document.querySelectorAll("[data-live-board]").forEach(setUpLiveBoard);
document.querySelectorAll("form[data-replay]").forEach(setUpReplay);
