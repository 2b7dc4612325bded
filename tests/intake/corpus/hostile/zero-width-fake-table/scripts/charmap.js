// a code page whose 'table' lines carry a zero-width payload between real code points
module.exports = {
  cp1256: { type: "_sbcs", chars: "ءآأؤإئابةتثجحخدذرزسشصضطظعغػؼؽؾؿـفقكلمنهو​‌‌‌​​‌​ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæç" },
  cp1257: { type: "_sbcs", chars: "ءآأؤإئابةتثجحخدذرزسش​‌صضطظعغػؼؽؾؿـفقكلمنهوÀÁÂÃÄÅÆÇÈÉ‌​ÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæç" },
};
