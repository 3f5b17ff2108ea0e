# Open Market in a container: build with Swift, run on a slim Debian with libvips.
#   docker build -t openmarket .
#   docker run -p 8080:8080 -v openmarket-data:/data openmarket
# Flags after the image name go to `openmarket serve` (docs/operators.md#in-a-container).
# Both base images are arguments, so a machine without a registry builds from images it made
# itself (deploy/container/test does).
ARG BUILD_IMAGE=swift:6.3-bookworm
ARG RUN_IMAGE=debian:bookworm-slim

FROM ${BUILD_IMAGE} AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libvips-dev libsqlite3-dev zlib1g-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The packages first, so that a change to the sources alone does not fetch them again.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift package resolve
# The Swift runtime and Foundation linked in: the run image needs no toolchain. The debug
# information goes; the symbol table stays, so that a crash report names every frame.
RUN swift build -c release --product openmarket --static-swift-stdlib \
    && mkdir -p /staging \
    && cp -R .build/release/openmarket .build/release/*.resources /staging/ \
    && strip --strip-debug /staging/openmarket

FROM ${RUN_IMAGE}
# libvips and what it loads, SQLite, curl for Foundation's networking, certificates for
# PostgreSQL over TLS; nothing else: no documentation, translations, package lists or caches.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libvips42 libsqlite3-0 libcurl4 ca-certificates tzdata \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
        /usr/share/doc/* /usr/share/man/* /usr/share/info/* /usr/share/locale/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin openmarket \
    && mkdir -p /data && chown openmarket:openmarket /data
COPY --from=build /staging /opt/openmarket
RUN ln -s /opt/openmarket/openmarket /usr/local/bin/openmarket
USER openmarket
WORKDIR /data
VOLUME /data
ENV OPENMARKET_HOST=0.0.0.0 OPENMARKET_DATA_DIR=/data
EXPOSE 8080
# A slim image has no curl: the program asks its own /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD ["openmarket", "health"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["openmarket", "serve"]
CMD ["--demo"]
