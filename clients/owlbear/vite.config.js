// Builds the popover into the service's static files (service/static/owlbear), served at /owlbear/.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "../../service/static/owlbear",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
  },
});
