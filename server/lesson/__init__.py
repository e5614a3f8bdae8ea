"""The guided lesson (/lesson): its chapters as data, and the huge-board figure. No HTTP."""
