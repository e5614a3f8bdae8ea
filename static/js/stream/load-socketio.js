// The vendored socket.io client (static/vendor/socket.io/, a classic script defining `io`),
// loaded on first use by a page that needs a socket only sometimes (Play's "show me").

let loading = null;

export function loadSocketIo(src) {
  if (typeof globalThis.io === "function") return Promise.resolve();
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error("socket.io-client did not load"));
    };
    document.head.append(script);
  });
  return loading;
}
