# syntax=docker/dockerfile:1
# Build: compile the single binary with the project's own toolchain (Bun comes from npm).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# Run: the binary alone on a slim glibc base, as a non-root user, data in /data.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data glitchbox \
 && mkdir -p /data && chown glitchbox /data
COPY --from=build /src/dist/glitchbox /usr/local/bin/glitchbox
ENV GLITCHBOX_DATA_DIR=/data PORT=8080 HOST=0.0.0.0
USER glitchbox
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["glitchbox", "healthcheck"]
ENTRYPOINT ["glitchbox"]
CMD ["serve"]
