// Command otlpsink is an OTLP/HTTP receiver that decodes the spans sent to
// it and counts them, for measuring what tracing costs a server (see
// bench/README.md): a stand-in for a collector on the same machine.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4318", "where to listen")
	phased := flag.Bool("timeline", false, "keep the spans and print, at the end, where streamed runs' time went up to their first node's checkpoint")
	flag.Parse()
	var tl timeline
	var exports, spans atomic.Int64
	http.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(r.Body)
		var req collector.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(data, &req)
		}
		if err != nil {
			http.Error(w, "decoding an export: "+err.Error(), http.StatusBadRequest)
			return
		}
		exports.Add(1)
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				spans.Add(int64(len(ss.Spans)))
				if *phased {
					for _, s := range ss.Spans {
						tl.add(s)
					}
				}
			}
		}
		out, _ := proto.Marshal(&collector.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	})
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		<-sig
		fmt.Printf("%d exports, %d spans\n", exports.Load(), spans.Load())
		if *phased {
			tl.print(os.Stdout)
		}
		os.Exit(0)
	}()
	log.Fatal(http.ListenAndServe(*addr, nil))
}
