// Render release notes: the skill's templates/ folder is one level above this script.
const fs = require("fs");
const path = require("path");

const template = path.join(__dirname, "..", "templates", "notes.md");
const parts = process.argv[2].split("/").filter((p) => p !== "." && p !== "..");
const changes = fs.readFileSync(parts.join("/"), "utf8").trim().split("\n");
console.log(fs.readFileSync(template, "utf8") + "\n" + changes.map((c) => `- ${c}`).join("\n"));
