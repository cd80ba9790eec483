// The <dpplay-widget> element other sites load: a sized iframe of one widget (a classic script).
//
// embed.js: one script tag for a page on another site that shows dpplay
// widgets (docs/embed.md):
//
//   <script src="https://…/dpplay/embed.js" async></script>
//   <dpplay-widget src="https://…/dpplay/embed.html#/lesson/widget?eps=0.5" title="…"></dpplay-widget>
//
// The element makes the iframe of its embed page (src, an embed address:
// web/embed/embedlink.js) and sizes it to the widget's height from the page's
// resize messages, so the frame never scrolls inside. It listens only to
// messages from its own frame's window and from the origin of its src.
// Methods: set(params) sends {type: 'dpplay:set', params} (the page
// validates it), present(on) sends {type: 'dpplay:present', on}; the
// attribute present does the same. The widget's state arrives as a
// 'dpplay-state' event on the element, detail {widget, params}. A plain
// iframe of an embed page of the same site as this script (iframeSnippet's)
// is sized from its resize messages too. Nothing here is loaded from
// anywhere but the src given, and nothing a frame sends runs as code.
(function () {
  'use strict';
  if (!window.customElements || window.customElements.get('dpplay-widget')) return;
  var MIN = 80;
  var MAX = 20000;
  var here = document.currentScript && document.currentScript.src ? new URL(document.currentScript.src).origin : '';

  /** height(data) is the height a resize message asks for, in px, or 0 when data is not one. */
  function height(data) {
    if (!data || typeof data !== 'object' || data.type !== 'dpplay:resize' || typeof data.height !== 'number' || !isFinite(data.height)) return 0;
    return Math.min(MAX, Math.max(MIN, Math.ceil(data.height)));
  }

  /** embedOrigin(src) is the origin of an http(s) embed address, or '' for anything else. */
  function embedOrigin(src) {
    try {
      var u = new URL(src, document.baseURI);
      return /^https?:$/.test(u.protocol) && /\/embed\.html$/.test(u.pathname) ? u.origin : '';
    } catch (e) {
      return '';
    }
  }

  class DpplayWidget extends HTMLElement {
    static get observedAttributes() { return ['src', 'title', 'present']; }

    constructor() {
      super();
      this.frame = null;
      this.origin = '';
      this.ready = false;
      this.queue = [];
      this.onMessage = this.onMessage.bind(this);
    }

    connectedCallback() {
      if (!this.frame) {
        var f = document.createElement('iframe');
        f.setAttribute('loading', 'lazy');
        f.style.cssText = 'display:block;width:100%;max-width:100%;border:0;height:480px';
        this.frame = f;
        this.sync();
        this.append(f);
      }
      window.addEventListener('message', this.onMessage);
    }

    disconnectedCallback() {
      window.removeEventListener('message', this.onMessage);
    }

    attributeChangedCallback(name) {
      if (!this.frame) return;
      if (name === 'present') this.present(this.hasAttribute('present'));
      else this.sync();
    }

    /** sync gives the frame the element's title and src (an address that is not an http(s) embed page is not loaded). */
    sync() {
      this.frame.title = this.getAttribute('title') || 'Interactive dpplay widget';
      var src = this.getAttribute('src') || '';
      var origin = embedOrigin(src);
      if (!origin) return;
      var href = new URL(src, document.baseURI).href;
      if (this.frame.getAttribute('src') === href) return;
      this.origin = origin;
      this.ready = false;
      this.frame.src = href;
    }

    onMessage(e) {
      if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== this.origin) return;
      var d = e.data;
      if (!d || typeof d !== 'object') return;
      if (!this.ready) {
        this.ready = true;
        var q = this.queue;
        this.queue = [];
        for (var i = 0; i < q.length; i++) this.post(q[i]);
        if (this.hasAttribute('present')) this.present(true);
      }
      var h = height(d);
      if (h) this.frame.style.height = h + 'px';
      else if (d.type === 'dpplay:state' && typeof d.widget === 'string' && d.params && typeof d.params === 'object') {
        var params = {};
        for (var k in d.params) if (Object.prototype.hasOwnProperty.call(d.params, k) && typeof d.params[k] === 'string') params[k] = d.params[k];
        this.dispatchEvent(new CustomEvent('dpplay-state', { bubbles: true, detail: { widget: d.widget, params: params } }));
      }
    }

    /** post(message) sends message to the frame's page, once it has said it is there. */
    post(message) {
      if (!this.ready) { this.queue.push(message); return; }
      if (this.frame.contentWindow && this.origin) this.frame.contentWindow.postMessage(message, this.origin);
    }

    /** set(params) asks the widget to take params ({key: value}, values as in its address, numbers as numbers). */
    set(params) { this.post({ type: 'dpplay:set', params: params }); }

    /** present(on) turns the widget's larger type for projection on or off. */
    present(on) { this.post({ type: 'dpplay:present', on: !!on }); }
  }
  window.customElements.define('dpplay-widget', DpplayWidget);

  // A plain iframe of an embed page of this script's own site is sized too.
  window.addEventListener('message', function (e) {
    var h = height(e.data);
    if (!h || !here || e.origin !== here) return;
    var frames = document.querySelectorAll('iframe');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (f.contentWindow === e.source && !f.closest('dpplay-widget') && embedOrigin(f.src) === here) f.style.height = h + 'px';
    }
  });
})();
