// On-screen card picker: tapping a card appends its notation to the selected field.
// Progressive enhancement only: the form works by typing notation without JavaScript.
(function () {
  const form = document.getElementById("card-dispute");
  if (!form) return;
  const target = () => document.getElementById(form.querySelector("input[name=picker_target]:checked").value);
  form.addEventListener("click", (event) => {
    const card = event.target.closest("[data-card]");
    if (card) {
      const field = target();
      const cards = field.value.split(",").map((c) => c.trim()).filter(Boolean);
      if (cards.filter((c) => c === card.dataset.card).length < 2) cards.push(card.dataset.card);
      field.value = cards.join(",");
      return;
    }
    if (event.target.closest("[data-clear]")) target().value = "";
  });
})();
