// cairn viewer: small conveniences; every page reads without this.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
	// Live search: submit the form a moment after typing stops.
	const q = document.querySelector("form.search input[type=search]");
	if (q) {
		let timer;
		q.addEventListener("input", () => {
			clearTimeout(timer);
			timer = setTimeout(() => { if (q.value.trim() !== "") q.form.requestSubmit(); }, 400);
		});
		// Back in the field after a reload, the cursor at the end.
		q.setSelectionRange(q.value.length, q.value.length);
	}
	// Ask before forgetting an item.
	for (const f of document.querySelectorAll("form.confirm")) {
		f.addEventListener("submit", (e) => {
			if (!window.confirm(f.dataset.confirm)) e.preventDefault();
		});
	}
});
