# syntax=docker/dockerfile:1
# polyrag: one image for the server (the default command) and the MCP adapter ("mcp --backend-url URL").
#   docker build -t polyrag .
#   docker run -p 8080:8080 -v polyrag-data:/data -e POLYRAG_HTTP_ADMIN_KEY=... polyrag
# Every setting is an environment variable POLYRAG_* (docs/configuration.md).

# ---- build: the release archive, from the sources (the wrapper runs the image's Maven: it downloads none itself;
# Node for the web UI)
FROM maven:3.9-eclipse-temurin-21 AS build
# Node 22 for the web UI's build (Vite needs 20.19+; the JDK image's Ubuntu ships 18): taken from the official image.
COPY --from=node:22-bookworm-slim /usr/local/bin/node /usr/local/bin/node
COPY --from=node:22-bookworm-slim /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s /usr/local/lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && apt-get update && apt-get install -y --no-install-recommends git && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN ./mvnw -q -B -pl dist -am package -DskipTests \
    && mkdir /out && tar -xzf dist/target/polyrag-*.tar.gz -C /out && mv /out/polyrag-* /out/polyrag

# ---- run: a JRE, a non-root user, one data volume
FROM eclipse-temurin:21-jre
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --create-home --home-dir /home/polyrag polyrag \
    && mkdir -p /data && chown polyrag:polyrag /data
COPY --from=build /out/polyrag /opt/polyrag
# A container is reached from outside its own loopback: it serves keyed from the start (no local mode). The
# operator key (POLYRAG_HTTP_ADMIN_KEY, a secret) creates tenants' keys over the API: POST /v1/admin/keys.
ENV POLYRAG_DATA_DIR=/data \
    POLYRAG_HTTP_HOST=0.0.0.0 \
    POLYRAG_HTTP_PORT=8080 \
    POLYRAG_HTTP_REQUIRE_KEYS=true \
    POLYRAG_LOG_FORMAT=json \
    POLYRAG_CDS=off
USER polyrag
VOLUME /data
EXPOSE 8080
# /health answers 200 as soon as the port is bound (status "starting" while the stores open); /ready says when
# searches can be served. The MCP adapter (mcp --backend-url URL) serves no /health: its container is healthy
# while it runs (checked on /health, it was unhealthy for good, and compose never started what depended on it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD tr '\0' ' ' < /proc/1/cmdline | grep -q ' mcp ' \
        || curl -fsS "http://127.0.0.1:${POLYRAG_HTTP_PORT:-8080}/health" > /dev/null || exit 1
ENTRYPOINT ["/opt/polyrag/bin/polyrag"]
CMD ["serve"]
