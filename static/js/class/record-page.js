// The teacher's printable record (templates/class_record.html): its Print button.
document.getElementById("record-print")?.addEventListener("click", () => window.print());
