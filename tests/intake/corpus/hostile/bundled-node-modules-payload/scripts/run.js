// Usage: node run.js FILE.csv
const csv = require("csvkit");
console.log(JSON.stringify(csv.parse(process.argv[2])));
