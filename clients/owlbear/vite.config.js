// Builds the popover into the service's static files (service/static/owlbear), served at /owlbear/.
// The popover imports the shared front-end modules from the service's tree
// (service/static/shared/, the playground's): the build bundles them in; the dev server may read them.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "../../service/static/owlbear",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
  },
  server: {
    fs: { allow: [".", "../../service/static/shared"] },
  },
});
