// The heat map layer: a canvas under the numbers tinting each square by how often the
// search entered it, on a log scale: once is pale yellow, the most entered deep red.

const LOW = [255, 240, 180];
const HIGH = [211, 47, 47];

export class HeatLayer {
  constructor(root) {
    this.root = root;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "board-heat";
    this.canvas.setAttribute("aria-hidden", "true");
    this.ctx = this.canvas.getContext("2d");
    root.append(this.canvas);
    this.shown = -1;
    this.state = null;
    new ResizeObserver(() => this._resize()).observe(root);
  }

  build() {
    this.shown = -1;
  }

  draw(state) {
    this.state = state;
    if (state.heatVersion === this.shown) return;
    this.shown = state.heatVersion;
    const { ctx, canvas } = this;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const heat = state.heat;
    if (!heat) return;
    let max = 1;
    for (let i = 0; i < heat.length; i++) if (heat[i] > max) max = heat[i];
    const scale = Math.log(max);
    const w = canvas.width / state.cols;
    const h = canvas.height / state.rows;
    for (let sq = 0; sq < heat.length; sq++) {
      if (heat[sq] === 0) continue;
      const f = scale > 0 ? Math.log(heat[sq]) / scale : 0;
      const [r, g, b] = LOW.map((lo, i) => Math.round(lo + (HIGH[i] - lo) * f));
      ctx.fillStyle = `rgba(${r},${g},${b},${0.6 + 0.3 * f})`;
      ctx.fillRect((sq % state.cols) * w, Math.floor(sq / state.cols) * h, w, h);
    }
  }

  _resize() {
    const rect = this.root.getBoundingClientRect();
    const ratio = globalThis.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(rect.width * ratio));
    this.canvas.height = Math.max(1, Math.round(rect.height * ratio));
    this.shown = -1;
    if (this.state) this.draw(this.state);
  }
}
