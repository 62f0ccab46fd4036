// See null-poster.html. A classic script: a module would be a CORS request with `Origin: null`.
for (const message of JSON.parse(new URLSearchParams(location.search).get("message") || "[]")) {
  parent.postMessage(message, "*");
}
parent.postMessage("reconcile-sandbox-test:posted", "*");
