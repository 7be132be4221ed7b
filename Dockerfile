# syntax=docker/dockerfile:1
# kgeval server image; used by docker-compose.yml (Neo4j + GDS run in their own container).

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /kgeval ./cmd/kgeval

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /kgeval /kgeval
ENV KGEVAL_SERVER_ADDR=0.0.0.0:8080 \
    KGEVAL_NEO4J_URI=bolt://neo4j:7687
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/kgeval"]
CMD ["serve"]
