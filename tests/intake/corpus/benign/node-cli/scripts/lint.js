const { execFileSync } = require('child_process');
const out = execFileSync('npx', ['eslint', '.'], { encoding: 'utf8' });
console.log(out);
