// The service worker of arbiter's pages, served as /sw.js (its scope the
// whole site): it shows each push the server sends (package notify's
// message: title, body, url, tag; a newer push of the same tag replaces
// the older) and opens its page on a click, focusing a tab that shows it
// already. Plain JavaScript, not a part of the bundle: web/src is typed
// for a page's DOM, which a worker has not.
self.addEventListener("push", (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch (e) {
    msg = { title: event.data ? event.data.text() : "" };
  }
  // Only a page of this site: a path, never another origin.
  const url = typeof msg.url === "string" && msg.url.startsWith("/") && !msg.url.startsWith("//") ? msg.url : "/";
  event.waitUntil(self.registration.showNotification(msg.title || "arbiter", {
    body: msg.body || "", tag: msg.tag || undefined, icon: "/assets/favicon.svg", data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    for (const tab of tabs) {
      if (tab.url === url && "focus" in tab) return tab.focus();
    }
    return self.clients.openWindow(url);
  }));
});
