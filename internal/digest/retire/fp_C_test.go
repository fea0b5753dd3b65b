package retire

import "testing"

// TestFPCKept holds newer statements the context pack read as changing
// an older one they leave as it was, from its retirement false
// positives (second pass).
func TestFPCKept(t *testing.T) {
	tests := []struct{ older, newer string }{
		// A card swapped by SSE, a 409 swapped like a 2xx, is how htmx
		// updates the page: no change.
		{"The handlers look at the `HX-Request` header: an htmx request gets just the card partial, a normal request (no JS, or someone opening the URL) gets the full page.",
			"Last one for today. Since the live updates, when a card gets swapped by SSE while someone has the cancel confirmation open on it, the dialog just vanishes under their thumb. And the front desk tablet falls out of the stream on busy Saturday mornings, it shows the reconnect spinner around 10:00."},
		{"Stream stays up past two minutes with pings every 15 s and no reconnects.",
			"Last one for today. Since the live updates, when a card gets swapped by SSE while someone has the cancel confirmation open on it, the dialog just vanishes under their thumb. And the front desk tablet falls out of the stream on busy Saturday mornings, it shows the reconnect spinner around 10:00."},
		{"The handlers look at the `HX-Request` header: an htmx request gets just the card partial, a normal request (no JS, or someone opening the URL) gets the full page.",
			"The 409 case is handled: `static/app.js` sets `htmx.config.responseHandling` so a 409 is swapped like a 2xx, and the card turns into its Full state with a short \"just got booked out\" line."},
		// x names the codec the template now offers, spelled G.722.
		{"The trunk: Voxtera only speaks G.711 A-law (PCMA in their export), so calls to the outside are transcoded G.722↔alaw on pbx01.",
			"The remote template tpl-remote now offers `g722,alaw`, which costs about a fortieth of the CPU per leg; on home broadband G.722 will be fine."},
		// Falling back to a font when one is missing changes nothing.
		{"Typst 0.12.0 is what Homebrew installs on tallow-mini.",
			"The font: Source Serif 4 is installed on your laptop (from Adobe Fonts) but not on tallow-mini, and Typst, when a font is missing, only warns and falls back to Libertinus Serif."},
		// A radio's current burst is no other load of the buck.
		{"Thermal check, done: 0.21 W in the buck at 500 mA gives a junction around 78 °C with the enclosure at 55 °C, comfortably inside the part's rating.",
			"During Wi-Fi association the module draws 342 mA bursts and 3V3 drops to 2.61 V, inside the C3's brownout window."},
	}
	for _, tt := range tests {
		if retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  retired by %q", tt.older, tt.newer)
		}
	}
}

// TestFPCStillRetired: what the narrowed rules must still retire.
func TestFPCStillRetired(t *testing.T) {
	tests := []struct{ older, newer string }{
		// A current counts with what it measures.
		{"The buck sees 500 mA load at most.",
			"The buck sees 800 mA load now, with the second radio."},
	}
	for _, tt := range tests {
		if !retiredBy(tt.older, tt.newer) {
			t.Errorf("%q\n  not retired by %q", tt.older, tt.newer)
		}
	}
}

// TestFPCStillKept: "still" in what a change is for says a state kept
// through it, not one that holds for now.
func TestFPCStillKept(t *testing.T) {
	older := "The TLS transport now has `external_media_address=203.0.113.47`, and local_net=10.20.0.0/16 plus 192.168.50.0/24 so the office LAN and the WireGuard users still get the private address."
	newer := "Your suspicion was right: the FreePBX migration had copied sip.conf and users.conf into /etc/asterisk, and because chan_sip.so was still autoloaded it bound UDP 5060 before PJSIP's transport-udp could, hence \"Address already in use\"."
	if retiredBy(older, newer) {
		t.Errorf("%q\n  retired by %q", older, newer)
	}
	if got := droppedBy(older, newer); got != older {
		t.Errorf("DropRetired = %q, want it whole", got)
	}
	// A state said to hold for now is moved still.
	if !retiredBy("db03 is still on CentOS 7.", "The weekend crew put Rocky 9 on db03.") {
		t.Error("db03 is still on CentOS 7 not retired")
	}
}
