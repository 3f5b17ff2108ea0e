// Open Market storefront. Every page works without this script; it adds endless scrolling, the
// view switch without a reload, the photo carousel's arrows and keys, the delete dialog, photo
// previews shrunk to 300 KB before upload, and form errors shown without losing chosen photos.
"use strict";

document.documentElement.classList.replace("no-js", "js");

const imageByteBudget = 300 * 1024;

function parseHTML(text) {
  return new DOMParser().parseFromString(text, "text/html");
}

// MARK: Catalogue

function setUpCatalogue() {
  const list = document.querySelector("[data-products]");
  if (!list) return;
  const loading = document.querySelector("[data-loading]");
  const loadingText = loading.querySelector("[data-loading-text]");
  const toggle = document.querySelector("[data-view-toggle]");
  const refresh = document.querySelector("[data-refresh]");
  let pager = document.querySelector("[data-pager]");
  // Page numbers asked for or shown, so that no page is ever loaded twice.
  const pages = new Set([list.dataset.page]);
  let busy = false;

  toggle.addEventListener("click", (event) => {
    event.preventDefault();
    const grid = list.classList.contains("list");
    list.classList.toggle("grid", grid);
    list.classList.toggle("list", !grid);
    document.cookie = `market_view=${grid ? "grid" : "list"}; path=/; max-age=31536000; samesite=lax`;
    const other = grid ? "list" : "grid";
    toggle.value = other;
    toggle.setAttribute("aria-label", other === "grid" ? "Grid" : "List");
    toggle.title = `Show as ${other}`;
    toggle.querySelector(".icon").className = `icon icon-${other}`;
  });

  async function load(url, { replacing = false } = {}) {
    busy = true;
    loadingText.textContent = "Loading…";
    loading.hidden = false;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const page = parseHTML(await response.text());
      const cards = page.querySelector("[data-products]");
      if (replacing) {
        list.replaceChildren();
        pages.clear();
      }
      pages.add(cards.dataset.page);
      const shown = new Set([...list.children].map((card) => card.dataset.id));
      for (const card of [...cards.children]) {
        if (!shown.has(card.dataset.id)) list.append(document.adoptNode(card));
      }
      const next = document.adoptNode(page.querySelector("[data-pager]"));
      pager.replaceWith(next);
      pager = next;
      loading.hidden = true;
      watch();
      return true;
    } catch {
      loadingText.textContent = "Could not load more products. “Next page” tries again.";
      return false;
    } finally {
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

  refresh.addEventListener("click", async (event) => {
    event.preventDefault();
    if (busy) return;
    window.scrollTo({ top: 0 });
    await load(refresh.href, { replacing: true });
  });
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
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.dataset.busy) return;
    const submit = form.querySelector("[data-submit]");
    const status = form.querySelector("[data-status]");
    form.dataset.busy = "true";
    if (submit) submit.disabled = true;
    try {
      const body = form.formBody ? await form.formBody() : new FormData(form);
      if (status) status.textContent = "Sending…";
      const response = await fetch(form.action, {
        method: "POST",
        body,
        headers: { Accept: "text/html", "X-Requested-With": "fetch" },
      });
      const next = response.headers.get("Market-Location");
      if (next) {
        window.location.assign(next);
        return;
      }
      const page = parseHTML(await response.text());
      const answer = page.querySelector(`form[action="${form.getAttribute("action")}"]`);
      if (!answer) {
        document.title = page.title;
        document.body.replaceWith(document.adoptNode(page.body));
        return;
      }
      if (status) status.textContent = "";
      showErrors(form, answer);
    } catch {
      if (status) status.textContent = "Could not reach the market. Check the connection and try again.";
    } finally {
      delete form.dataset.busy;
      if (submit) submit.disabled = false;
    }
  });
}

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

  if (form.hasAttribute("data-edit")) {
    for (const field of form.querySelectorAll("[data-original]")) {
      const mark = () => field.closest("[data-field]").classList.toggle("changed", field.value !== field.dataset.original);
      field.addEventListener("input", mark);
      field.addEventListener("change", mark);
    }
  }
  setUpPhotoPicker(form);
}

function setUpPhotoPicker(form) {
  const input = form.querySelector("[data-image-picker]");
  const previews = form.querySelector("[data-previews]");
  const error = form.querySelector('[data-error-for="images"]');
  const limit = Number(input.dataset.limit);
  const photos = [];

  const say = (text) => {
    error.textContent = text;
    error.hidden = text === "";
  };
  const render = () => {
    previews.replaceChildren(
      ...photos.map((photo, index) => {
        const item = document.createElement("li");
        const image = document.createElement("img");
        image.src = photo.url;
        image.alt = `Photo ${index + 1}: ${photo.name}`;
        const size = document.createElement("span");
        size.textContent = `${Math.ceil(photo.blob.size / 1024)} KB`;
        size.dataset.size = photo.blob.size;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = "Remove";
        remove.setAttribute("aria-label", `Remove photo ${index + 1}`);
        remove.addEventListener("click", () => {
          URL.revokeObjectURL(photo.url);
          photos.splice(index, 1);
          say("");
          render();
          (previews.querySelectorAll("button")[Math.min(index, photos.length - 1)] ?? input).focus();
        });
        item.append(image, size, remove);
        return item;
      }),
    );
  };

  input.addEventListener("change", async () => {
    const files = [...input.files];
    input.value = "";
    say("");
    for (const file of files) {
      if (photos.length >= limit) {
        say(`At most ${limit} photos; ${file.name} was left out.`);
        break;
      }
      const blob = await shrink(file).catch(() => file);
      photos.push({ blob, name: file.name, url: URL.createObjectURL(blob) });
      render();
    }
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

setUpCatalogue();
setUpCarousels();
setUpDialogs();
document.querySelectorAll("form[data-enhance]").forEach(enhanceForm);
document.querySelectorAll("form[data-product-form]").forEach(setUpProductForm);
