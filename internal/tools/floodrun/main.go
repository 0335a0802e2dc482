// Command floodrun is the outside run of the analysis flood against a real
// "arbiter serve": 8 loopback addresses loop 5 s analyses while a person
// plays level 1 and rated 15s+0 games against level 6 (its person moves at
// once, so a loss on time is the AI's). Start a server, then:
//
//	go run ./internal/tools/floodrun --url http://127.0.0.1:8080 --games 4
//
// It prints the AI's reply times (polled every 60 ms, so a reply reads
// at least 60 ms) and the games' ends; docs/server.md has its figures.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

var base = flag.String("url", "http://127.0.0.1:18080", "server")

func clientFrom(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Jar: jar}
}

func do(c *http.Client, method, path string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, *base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

type view struct {
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
	Result *struct {
		Reason string `json:"reason"`
	} `json:"result"`
	Description string `json:"description"`
}

type created struct {
	ID    string `json:"id"`
	Seats []struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	} `json:"seats"`
}

func getView(c *http.Client, id string) view {
	_, b := do(c, "GET", "/api/games/"+id, nil)
	var v view
	json.Unmarshal(b, &v)
	return v
}

func move(c *http.Client, id, token, mv string, ply int) int {
	data, _ := json.Marshal(map[string]any{"move": mv, "ply": ply})
	req, _ := http.NewRequest("POST", *base+"/api/games/"+id+"/moves", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// play plays moves against the AI seat 1 and returns the reply times.
func play(c *http.Client, g created, maxMoves int) ([]time.Duration, view) {
	var replies []time.Duration
	token := g.Seats[0].Token
	v := getView(c, g.ID)
	for i := 0; i < maxMoves && v.Result == nil; i++ {
		mv := v.Legal[i%len(v.Legal)]
		if code := move(c, g.ID, token, mv, v.Ply); code != 200 {
			fmt.Fprintf(os.Stderr, "move %s at %d: %d\n", mv, v.Ply, code)
			return replies, v
		}
		start := time.Now()
		want := v.Ply + 2
		for {
			time.Sleep(60 * time.Millisecond)
			v = getView(c, g.ID)
			if v.Ply >= want || v.Result != nil {
				break
			}
		}
		if v.Ply >= want {
			replies = append(replies, time.Since(start))
		}
	}
	return replies, v
}

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func main() {
	addrs := flag.Int("addrs", 8, "flooding addresses")
	games := flag.Int("games", 3, "games against level 6")
	flag.Parse()
	var stop atomic.Bool
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range *addrs {
		c := clientFrom(fmt.Sprintf("127.0.0.%d", i+2))
		wg.Go(func() {
			for !stop.Load() {
				code, _ := do(c, "POST", "/api/analysis/pommel/best", map[string]any{"movetime": 5000})
				if code == 200 {
					ok.Add(1)
				} else {
					refused.Add(1)
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(2 * time.Second)
	person := clientFrom("127.0.0.1")
	start := time.Now()
	if code, b := do(person, "POST", "/api/accounts", map[string]any{"name": "floodrun", "password": "correct horse battery staple"}); code != 201 {
		fmt.Println("sign up:", code, string(b))
	}
	code, b := do(person, "POST", "/api/games", map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	var g1 created
	json.Unmarshal(b, &g1)
	if code != 201 {
		fmt.Println("create:", code, string(b))
		return
	}
	r1, v1 := play(person, g1, 30)
	fmt.Printf("level 1: %d replies, p50 %s, p99 %s, max %s; game: %s\n", len(r1), pct(r1, .5), pct(r1, .99), pct(r1, 1), v1.Description)
	var all6 []time.Duration
	flags := 0
	for range *games {
		code, b := do(person, "POST", "/api/games", map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=6"}, "rated": true, "clock": "15s+0s"})
		if code != 201 {
			fmt.Println("create rated:", code, string(b))
			break
		}
		var g created
		json.Unmarshal(b, &g)
		r, v := play(person, g, 200)
		all6 = append(all6, r...)
		reason := ""
		if v.Result != nil {
			reason = v.Result.Reason
		}
		fmt.Printf("level 6 rated 15s+0: %d replies, max %s; ended at ply %d: %s (%s)\n", len(r), pct(r, 1), v.Ply, v.Description, reason)
		if reason == "time forfeit" {
			flags++
		}
	}
	stop.Store(true)
	wg.Wait()
	fmt.Printf("level 6: %d replies, p50 %s, p99 %s, max %s; flags of level 6 %d\n", len(all6), pct(all6, .5), pct(all6, .99), pct(all6, 1), flags)
	fmt.Printf("flood: %d analyses answered, %d refused, over %s\n", ok.Load(), refused.Load(), time.Since(start).Round(time.Second))
}
