/** Stylesheets imported from components (e.g. uPlot's); Bun's bundler emits them beside the script. */
declare module '*.css'
