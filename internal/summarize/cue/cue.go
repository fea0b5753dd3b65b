package cue

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Hedge marks a guess, not a finding.
var Hedge = lazyre.New(`(?i)\b(might|maybe|perhaps|possibly|probably|i think|i believe|i suspect|i guess|seems|appears to|could be|not sure|likely|unclear|wonder|let me (check|see|verify|look)|(check|see|find out|know|verify|test|confirm|ask|decide|tell|sure) whether|just to (check|make sure|be sure|rule out))\b`)

// Narrate is the agent talking about its own next step or reacting.
var Narrate = lazyre.New(`(?i)^(let me|let's (check|see|look|verify|run|read|try to find)|now,? (i|let)|i'll (now |first |then )?(check|look|read|run|start|open|search|grep|inspect|examine|verify|fix|update|add|create|write|edit|make|implement|investigate|review|test|try)|i will|i'm going to|i am going to|i need to|next,? (i|let)|first,? (i|let)|then,? i|okay|ok\b|great|perfect|excellent|good|sure|alright|got it|understood|thanks|thank you|here's|here is|looking at|i see|i can see|i found|i've|i have|i updated|i added|i changed|i created|i removed|i renamed|i ran|running|checking|reading|searching)\b`)

// ChangeReport is the agent reporting a change it made in the first
// person: "I've also set the markets the way the contracts read to me:
// UK is the home market" states what now holds. Narrate takes "I've"
// for the agent talking about itself ("I've looked at the logs"), and
// such a report was lost with it.
var ChangeReport = lazyre.New(`(?i)^(?:i've|i have) (?:also |now |then |just |already )?(?:set|changed|made|moved|switched|configured|put|pinned|raised|lowered|bumped|renamed|split|turned|enabled|disabled|replaced|capped|limited|rewritten|rewired|written|built|scheduled|excluded|included|marked|mapped|reverted|restricted|wired|tightened|loosened|extended|shortened|increased|reduced|defaulted|routed|pointed|locked|unlocked|upgraded|downgraded)\b`)

// Narrating reports whether s is the agent talking about its own steps
// (Narrate) and not reporting a change it made (ChangeReport): what an
// outcome or a detail leaves out.
func Narrating(s string) bool { return Narrate.MatchString(s) && !ChangeReport.MatchString(s) }

// Chitchat is a prompt that asks for nothing.
var Chitchat = lazyre.New(`(?i)^(\s*(ok(ay)?|k|thanks?( you)?|thx|ty|cool|nice|great|perfect|awesome|good|fine|yes|yep|yeah|yup|sure|no|nope|go( on| ahead)?|continue|proceed|carry on|keep going|do it|please|pls|sounds (good|right|great|fine)|that's fine|(good )?morning|hi|hello|hey|lgtm|looks good|makes sense|(?:i )?agreed?(?: (?:on|to|with))?(?: all(?: of)?)?(?: (?:it|that|this|them|those|everything|both|the (?:plan|lot|above|rest)))?|right|alright|got it|nice work|good job|well done|that works|works|done|next|and|then|now|so|!|\.|,)\s*)+[.!?]*\s*$`)

var RootCause = lazyre.New(`(?i)(\b(dropped|lost|skipped|duplicated|missed|leaked|overflowed|truncated|stalled|blocked|rejected|ignored|double-counted|mismatched|diverged|drifted|regressed|degraded|spiked|returned (nil|null|empty|wrong|the wrong|stale|no)|got (stuck|lost|dropped|reset)|go(?:es)? (?:negative|wrong)|went (?:negative|wrong))\b[^.;]{0,40}\b(because|since|due to)\b|\bwhat (broke|caused|triggered|killed|slowed down|was breaking|was causing)\b|^(i )?(found|see|spotted|got) (it|the (issue|problem|bug|culprit|cause))( now)?\s*[:—-]\s*\S+|^(the )?(issue|problem|bug|culprit|cause|root cause|diagnosis)\s*:\s*\S+|^the (?:[\w-]+ ){0,2}(?:failure|error|crash|crashes|problem|outage|hang|timeouts?|404s?|500s?|drops?|flicker|mismatch) (?:was|were) (?:an? (?:[\w-]+ ){0,2}(?:mismatch|race|leak|bug|typo|overflow|deadlock|misconfiguration|collision|conflict|timeout|off-by-one)|caused by|due to)\b[^.;]{0,80}:|^what(?:'s| is| was)? (happened|happening|went wrong|broke)\s*:\s*\S+|,\s+hence (the|a|an|all|every|those|these|our|its)\b[^.;]{0,40}\b(errors?|failures?|crash(es)?|bugs?|timeouts?|mismatch(es)?|shift|leaks?|exceptions?|stutters?|drift|duplicates?|lag|outage|warnings?|resets?|[45]\d\d)\b|\b(fail(s|ed|ing)?|br(oke|eaks|eaking)|crash(es|ed|ing)?|hang(s|ing)?|hung|times? out|timed out|timing out|error(s|ed|ing)?|flak(y|ed|ing)|panick?(s|ed|ing)?|(was|were|is|are) (wrong|off|broken|slow|empty|missing|duplicated))\b[^.;]{0,30}\b(because|since|due to)\b|\b(was|were|is|are) (all |only |just |partly )?because\b|\bwhy (it|this|that|the [\w-]+( [\w-]+)?) (failed|fails|broke|breaks|crashed|crashes|hung|hangs|was|were|didn't|did not|wasn't)\b[^?]*:|\bturn(s|ed) out\b|\bthe (real |actual |underlying |root )?(culprit|cause|problem|issue|bug|reason it \w+|reason)( here| was that| is that)? (was|is|turned out|came from|lies)\b|\broot cause\b|\b(flakiness|flakes|failures?|crash(es)?|errors?|bug|leak|slowness|latency|timeouts?|regression|hang|panic|deadlock|race|mismatch|discrepancy|drift|problem|issue|breakage|outage|404s?|500s?|off-by-one|duplicate[sd]?|gaps?|resets?|garbage|spikes?)\b[^.;]{0,40}\b(came|comes|stems|stemmed|results|resulted|originates|originated) from\b|\b(was|is|were|are) (all |entirely |partly )?due to\b|\bthe (race|deadlock|leak|regression|panic|crash|bug|problem|issue|error)( condition)? (is|was) (in|on|at|from)\b|\b(was|were|is|are|got) (all )?(caused|triggered) by\b|\b(happen(s|ed)?|fail(s|ed)?|broke|breaks|crash(es|ed)?|hung|hangs|timed out|times out|flak(y|ed)|panick?(s|ed)?|errored|leaked|deadlocked|returned \w+) (only )?(because|since|due to|whenever|when)\b|\bbecause of (a|an|the) (bug|typo|race|missing|stale|wrong|bad|broken|leftover|cached)\b|\bthe fix (was|is) (to|that)\b|\b(forgot|forgetting|neglected) to\b|\bnever (got|gets|being|was|were) \w+ed\b|\b(wasn't|weren't|was not|were not) (being |actually |properly |ever )?\w+ed\b|\boff[- ]by[- ]one\b|\brace (condition )?(in|between|on)\b|\b(was|were) (nil|null|undefined|empty|zero|stale|missing|wrong|shadowed|swallowed|ignored|cached|truncated|overwritten|reused|shared|unset|misspelled|reversed|inverted|swapped|doubled|double-counted)\b|\b(was|were)\b[^.;]{1,60}\binstead of\b|\bthat'?s why\b|\bwhich (meant|caused|made|broke)\b|\b(that|which|this) (then )?(exhausted|crashed|killed|overflowed|took down|blew up|filled up|starved|double-counted)\b|, so (every|all|each|the|nothing|no|it|they)\b[^.;]{0,80}\b(was|were|looked|got|became|failed|broke|returned|showed|ended|counted|ran)\b|\bwhich is why\b|\bthat explains\b|\bexplains (the|why)\b)`)

var DecisionCue = lazyre.New(`(?i)(\bthe reason (?:why )?[^.;:]{2,60}? (?:is|was|are) (?:the |a )?(?:better|best|right|safer|simpler) (?:fit|choice|option|pick|tool|call)\b[^.;]{0,30}? (?:is|was) (?:that|because)\b|\b(?:is|was) the (?:better|best|right) (?:fit|choice|pick|option) (?:here |for (?:us|this|you|now|the \w+) )?(?:because|since|as)\b|^so,? (?:the |our |all |every )[\w -]{2,50}\b(?:moves|switches|migrates) (?:over )?to (?:(?-i:[A-Z])|` + "`" + `)|^(?:we|i) (?:ask|use|keep|run|store|send|show|call|poll|cache|log|skip|pin|build|deploy|ship|serve|sign)\b[^.;]{1,80}\bfor now[.!]?$|\bdecided\b|\b(?:we|i|you|they)(?: [\w']+){0,2} went with\b|^(nah|no|nope|ok|okay)?,? ?(skip|drop|ditch|scrap|forget) (the |that |this )?[\w/-]+|\bagreed (to|on|that)\b|\bwe('ll| will|'re going to| are going to) (now |just |instead |rather )?(trigger|expose|generate|publish|emit|batch|queue|poll|stream|index|hash|encrypt|sign|validate|compute|render|wrap|route|proxy|mount|bundle|compile|shard|partition|version|namespace|bump|upgrade|downgrade|remove|delete|rename|inline|extract|defer|gate|flag|feature-flag|backfill|cap|throttle|debounce|paginate|lock|own|accept|reject|require|allow|block|ignore|support|target|standardi[sz]e|consolidate|centrali[sz]e|containeri[sz]e|host|run|keep)\b|\bdecision( is|:)|\bwe('ll| will| are going to|'re going to| should| shall| can just) (use|go|switch|stick|keep|move|adopt|store|put|run|rely|pick|drop|replace|make|build|treat|model|ship|deploy|serve|handle|split|merge|migrate|pin|vendor|do|cache|claim|send|log|return|retry|skip|limit|read|write|call|leave)\b|\blet'?s (use|go with|switch|stick|keep|move|adopt|store|put|pick|drop|replace|make|just|rely|pin|vendor|split|cache|ship|leave|stay|not)\b|\bgo(ing)? with\b|\bswitch(ed|ing)? (it |this |that |them |over |everything |the \w+ )?(to|from)\b|\bsettled on\b|\bopt(ed|ing) (for|to)\b|\b(chose|chosen|choose|picking)\b|\bpicked(?:$|[^\w ]| (?:[a-tv-z]\w*|u[a-oq-z]\w*|up\w+))|\bstick(ing)? (with|to)\b|\b(we're|we are|i'm) (dropping|ditching|replacing|removing|moving|switching|keeping|sticking|going)\b|\breplac(e|ed|ing) \S+( \S+)?( \S+)? with\b|\bno longer (use|need|using)\b|\b(won't|will not|not going to) use\b|\bafter all(?:$|[^\w ]| (?:but|though|then|now|since|because|and|or|so|as|in|for|on|with|to|from|if|when|we|i|you|they|it|is|was|are|were)\b)|\bthe plan is\b|\b\w+ it is[.!]?$|^[\w./-]+ it is,? (?:then\b|for\b))`)

// JustifiedOver is a choice against a named alternative with its
// reason: "it compiles with -std=ibm rather than the default
// dialect, because BILL040 depends on IBM's truncation"; "Customers
// sign in with a magic link …, no passwords — café staff would share one
// password on a sticky note anyway".
var JustifiedOver = lazyre.New(`(?i)\b(rather than|instead of|in favou?r of)\b[^.;:]{0,120}(\b(?:because|since|so that)\b|:\s+\S)|^[A-Z][^.;:—–]{10,120},\s+(?:no|not|never)\s+[\w -]{2,30}\s+[—–]\s+\w`)

// ChoseOver is the agent's report of a choice against a named
// alternative: "I keyed refunds by id rather than a counter".
var ChoseOver = lazyre.New(`(?i)^(so )?(i|we)(?:'ve| have)? (\w+ed|chose|chosen|went with|gone with|made|kept|built|wrote|written|put|set|took|taken)\b(?:[^.;:]|\.\w){0,120}\b(rather than|instead of|in favou?r of)\b`)

// LookedAt is a look, a check or a try, which chooses nothing.
var LookedAt = lazyre.New(`(?i)^(so )?(i|we) (looked|checked|tried|tested|searched|grepped|opened|compared|inspected|printed|logged|timed|profiled|watched|used)\b`)

// ToolVerdict is a command's result said with the command as its
// subject: "make test passes, and no new dependency was needed" reports,
// where DecisionWeak takes "make …" for an order.
var ToolVerdict = lazyre.New(`(?i)^(?:make|npm|pnpm|yarn|bun|go|cargo|pytest|tox|nox|mvn|gradle|dotnet|bundle|rake|mix|just|task)(?: [\w:./-]+){0,2} (?:passes|passed|fails|failed|succeeds|succeeded|is (?:green|red|clean|happy)|runs? (?:clean|green)|works|worked|builds|built)\b`)

// DecisionWeak counts in what the user asks for, or in a plan.
var DecisionWeak = lazyre.New(`(?i)(\bin favou?r of\b|\b(rather than|instead of)\b|^(use|prefer|keep|store|switch|move|replace|make|put|drop|pin|return) |^(?:(?:just|then|so|please)\s+)?(?:set|make|raise|lower|bump|increase|reduce|cap|limit) (?:the |our |its |their )?[\w -]{2,40}? (?:(?:to|at) )?\d)`)

// PreferOver names the alternative a user turns down: "rather than
// X", "instead of X".
var PreferOver = lazyre.New(`(?i)\b(in favou?r of|rather than|instead of)\b`)

var PlanMarker = lazyre.New(`(?i)(^(use|prefer|keep|store|switch|move|replace|make)\s|\b(we|we'll|let's|i'll|i will|we should|should use|i switched|i replaced|i changed)\b)`)

var ReasonStart = lazyre.New(`(?i)^(because|since|otherwise|the reason|that way|this way|this means|that means|[\w' -]{1,40} (stays|stay|remains|remain) (flat|constant|bounded|low|small|fast|stable|the same|under|below|within)\b|(it|this|that|they)('s| is| are|'re) (faster|simpler|safer|cheaper|already|enough|more|less|the only|lighter|smaller|built|overkill|too|what)|(it|this|that|they) (gives|keeps|avoids|lets|means|handles|supports|works|has|have|doesn't|does not|won't|will|already|saves|needs)|its [\w-]+(?: [\w-]+)? (?:lets?|gives?|keeps?|makes?|means|handles?|supports?|avoids?|saves?)\b|(the )?(main |big |only )?(advantage|benefit|upside|downside|problem with|issue with|catch)\b)`)

// Symptom is a sentence that says what went wrong, which the next
// sentence may explain.
var Symptom = lazyre.New(`(?i)\b((?:recurses?|recursing|loops?|looping|spins?|spinning|waits?|blocks?) forever|infinite (?:loop|recursion)|stack overflow|crash(es|ed)?|fail(s|ed)?|broke|breaks|hung|hangs|(?:gets?|got|is|are) stuck|freezes|froze|timed out|times out|doubled|tripled|spiked|went down|took (\S+ ){1,4}down|out of memory|OOM|ran out of|(was|were|is|are) (wrong|off|slow|empty|missing|duplicated|too (high|low|slow|big)))\b`)

// CauseMech explains a failure told just before it: what the code
// did (past tense) and how that led there. "The whole file was
// concatenated into one string until the heap limit was hit."
var CauseMech = lazyre.New(`(?i)\b(was|were|had|did|didn't|got|kept|never)\b[^?]{0,200}\b(until|so|because|since|whenever|every time|each time|instead of|before|which|and then)\b`)

// OpenLabel heads an open item: "Still to do: …", "Open item: …".
var OpenLabel = lazyre.New(`(?i)^(open (item|point|issue|question|task)s?|open(?: (?:from|as of|since|for) (?:today|tonight|this session|now|later|next time))?|still (to do|needed|open|pending|left|missing)|remaining( for (next time|later|tomorrow|the next session))?|left (to do|for next time|for later|for (another|the next) (day|session|time))|to-?do|next up|up next|next)(?:,? as far as (?:i|we) (?:know|can tell|can see|remember))?\s*[:—–]\s*`)

// ReasonLabel is a label before a reason said after what it
// justifies: "Why both:", "Why bother at all:", "The reason:".
var ReasonLabel = lazyre.New(`(?i)^(why( [\w'-]+){0,4}|the (main |real |whole |only )?(reason|rationale|point|idea|motivation)( for (it|this|that|both|them|\w+))?( is| was)?|reason|rationale)\s*[:—–]\s*`)

// ReasonIs opens a reason told as a clause: "The reason is that the
// app's installation tokens aren't tied to a person", "The reason is the
// packaging: …". What follows it says whether it explains a fault.
var ReasonIs = lazyre.New(`(?i)^the (?:main |real |whole |only |simple )?(?:reason|rationale|motivation)(?: for (?:it|this|that|both|them))? (?:is|was) (?:that |simply |mostly |exactly )?`)

// ReasonsFor gives the reasons for a choice after naming it: "the
// doc records the reasons we're staying on Playwright: …".
var ReasonsFor = lazyre.New(`(?i)\bthe (?:main |real )?reasons? (?:why )?((?:we're|we are|we|i'm|i am) (?:not )?(?:staying|sticking|keeping|going|using|choosing|picking|moving|switching|dropping|leaving|building|running)\b[^:;.]{2,60}?)\s*:\s+(\S.{10,})$`)

// ReasonLead opens a sentence that justifies the one before it.
var ReasonLead = lazyre.New(`(?i)^(that way|this way|this means|that means|which means|otherwise|so that|the point is|the upshot is|without (it|this|that|them),)\b`)

// NowStateRE is a report of what was done as the state it leaves.
var NowStateRE = lazyre.New(`(?i)(^now,? (the |a |an |it |they |each |every |all |\S+ )|\b(is|are) now\b|\bnow (\w+s|is|are)\b|\b(\w+s|is|are) \S+( \S+)? now(?:[.,;]|\s\()|\bswitched (\S+ ){0,4}(to|over to)\b)`)

var RejectCue = lazyre.New(`(?i)(\b(an|the|one|another|the other) (\w+ )?(alternative|option) (would have been|would be|was|is|could be|would have meant)\b(?:[^.;]|\.\w){0,160}\bbut\b|\b(the other|another|a different|one other) (way|approach|route) (would have been|would be|could be|is)\b(?:[^.;]|\.\w){0,160}\bbut\b|\b(we|i) could have\b[^.;]{0,120}\bbut\b|\b(looks|sounds|seems|is|was|would be|would have been) (attractive|tempting|appealing|nice|nicer|simpler|easier|cleaner|quicker|faster|cheaper)( on paper| at first| to write)?,? but\b|\b(i|we) (thought about|considered|looked at)\b(?:[^.;]|\.\w){0,160}\bbut\b|\bwe could,? but\b|^[\w./+-]+(?: (?:and|or) [\w./+-]+)? would (?:save|give|buy|cut|halve|help|be (?:faster|smaller|simpler|cheaper|nicer))\b[^.;]{0,60},? but\b|\bforget (the|about)\b|\bscrap (the|that)\b|\bnot (worth|a good fit)\b|\bover \S+( \S+)? (because|since|as (?:it|it's|they|they're|we|i|the|this|that|its|their|our|there's)\b)|\bdecided against\b|\bruled out\b|\bwhat (?:i'd|i would|we'd|we would) rule out(?: entirely| completely| altogether)? is\b|\b(i'd|i would|we'd|we would|we should|let's) rule (that|it|this|them) out\b|^[^.;:,]{3,60} (?:i'd|i would|we'd|we would) (?:rule out|skip|avoid|pass on)\s*[:—–,.]|\b(is|are) out (for (this|that|now|us|here|the reasons?)|here)\b|\b(?:i'd|i would|we'd|we would|let's|i'll|we'll) (?:keep|leave) (?:(?:it|that|this|them|[\w.-]*[/\x60._-][\w./\x60-]*|(?-i:[A-Z])[\w.-]*) )?out(?:\s*[:;,.—–]|\s+(?:and|entirely|altogether|completely|on purpose)\b|$)|\b(?:i|we) (?:deliberately |intentionally )?(?:left|kept) (?:out\b[^.;]{1,60}\b(?:on purpose|deliberately|intentionally)|[^.;]{1,40} out(?: of (?:it|this|that|the \w+))? (?:on purpose|deliberately|intentionally)|out\b[^.;:]{1,60}:)|\b(is|are) out\s*[:—–]|\b(suggested|proposed)\b[^.]{1,100}?(\binstead\b[^.;]{0,10}\bbut\b|;\s*no\b|\s—\s*no\b)|\b(?:i|we|you) rejected\b|\brejected\b[^.;]{0,80}\b(?:in favou?r of|because (?:we|i|it)|since (?:we|i|it))\b|\b(?:i|we) (?:didn't|did not) (?:use|go with|go for|opt for|pick|choose|take|add) \S+[^.;]{0,80}\b(?:because|since|as)\b|\b(?:i|we) (?:didn't|did not) do [\w.-]+:\s+\S|\b(?:i|we) (?:didn't|did not) (?:use|go with|go for|opt for|pick|choose|take|add) (?:\x60[^\x60]{1,80}\x60|[\w.-]+(?:\([^()]{0,40}\))?(?: [\w.-]+(?:\([^()]{0,40}\))?){0,3})\s*(?::|—|–)\s+\S|\b(?:i|we) (?:didn't|did not) (?:build|write|make|add|use)\b[^.;]{0,100};\s*(?:that|it|this) would\b|\b(won't|will not|not going to|don't want to|do not want to|shouldn't|no need to|not worth) (use|using|go with|add|adding|pull in|introduce|bring in)\b|\bconsidered\b.{0,60}\bbut\b|\b(we're|we are|i'm) (dropping|ditching|removing|not using)\b|\bdrop(ped|ping)? \S+( \S+)? (after all|in favou?r of)\b|\bno longer (use|using|need)\b|\b(is|would be|was|'s) (overkill|too heavy|too slow|too complex)\b|\b(i'd|i would|we'd|we would) rather not\b|\b(?:i'd|i would|we'd|we would) skip (?:it|that|this|them)\b|\b(?:tried|tested|looked at|played with)\b[^.;]{0,80}\band (?:i'd|i would|we'd|we would) (?:leave|drop|skip) (?:it|that|them)\s*(?:[:;,—–.]|$)|\b(?:i'd|i would|we'd|we would) pass on\b|\b(i'd|i would|we'd|we would) (advise|recommend|argue|vote) against\b|\bi (wouldn't|would not) recommend\b|\b(i'd|i would|we'd|we would|we should|let's) (keep|leave) [^.;:]{1,60} out of (it|this|that|here|the \w+)\b|\b(is|are) out(,? (as well|too|either))?,? (since|because)\b|\b(i|we) (wouldn't|would not) (use|go with|pick|choose|add|adopt|introduce|follow|take|go down|do|build|bother with)\b|\b(?:i'd|we'd) not (?:use|go with|pick|choose|add|adopt|introduce|bring in|pull in|run|do|build|bother with)\b|\b(doesn't|does not|wouldn't|would not) fit\s*(:|the bill\b|our case\b)|^(i|we) (didn't|did not) (give|use|add|go with|pick|choose|split|introduce|wrap|guard|protect|lock|put)\b[^.;:]{0,100}(:|—)|\b(chose|decided|opted) not to\b)`)

var PrefCue = lazyre.New(`(?i)((?:^|:\s*)no\s[^.;:]{1,60}?,\s*ever[.!]?$|^(?:two|three|a few|some|my) (?:rules|conventions|ground rules)(?: for [^:]{1,40})?\s*:\s*\S|\bkeep doing (?:that|this|it)(?:[.!,;]|$)|^no [\w.-]+(?: [\w.-]+){0,4},? please\b|\bplease,? no [\w.-]+|\bin \w+[- ]style\b|\bstyle guide\b|\bnaming convention\b|\b(british|american|us|uk) (english|spelling)\b|^no \w+s\b|(?:^|:\s*)no\s(?:[^.;:,]|\.\w){1,50}?\b(?:anywhere|ever|at all)\b|^no (?-i:[A-Z])[\w.+-]*(?: [\w-]+){0,2}[.!]$|\b(?:to be clear|one rule|one more rule|house rule|ground rule)\b[^.:;]{0,40}:\s*(?:no|never|always|don't|do not)\s|\bno (more )?\w+s (in|for|anywhere|ever)\b|\bfrom now on\b|\bgoing forward\b|\bin (the )?future\b|\balways\b|\bnever\b|\bevery time\b|\beach time\b|\bplease (don't|do not|never|always|stop|avoid|keep|make sure|use|prefer|just|remember)\b|\bplease,? not (?:in|into|on|with|through|via|from|to)\b|\bmust (?:always |still )?(?:work|run|stay|load|build|render) (?:without|offline|under|below|within|in under)\b|\bleave\b[^.;]{1,60}\balone\b|\bdon't ever\b|\bdo not ever\b|\bi'?d (rather|prefer|like you to|like it if)\b|\bi would (rather|prefer|like you to)\b|\bi prefer\b|\bi (really )?(like|want|need) (you|it|them|my|our|all|each|every|short|small|concise|one)\b|\b(drives|driving) me (nuts|crazy|mad|insane|up the wall)\b|\bi (hate|dislike|can't stand|don't like|do not like|don't want|do not want|don't need)\b|\b(it's|it is|that's|that is) (annoying|frustrating|noisy|too verbose|too long|unreadable)\b|\byou keep\b|(?:^|[,.;:!—–(]\s*|\b(?:please|pls|also|and|so|just|let'?s|can|should|to|oh|then|now|you|ever|ok|okay|but)\s+)stop \w+ing\b|\bno more\b|\bmake sure (to|you|that|the|it|we|all|every)\b|\bremember to\b|\bkeep (it|them|things|the|commit|commits|answers|responses|changes|messages|prs?|functions|lines|files)\b|\bstick to\b|\byou can (now )?(use|run|do|add|call|start|kick off|touch|keep|have|go back to|work on|edit)\b[^.;]{0,60}\bagain\b|\bforget (what|everything|all) (i|we)( have|'ve)? (said|told you|wrote|asked) about\b|^(prefer|avoid|use|don't|do not|stop|keep|write|name|put)\b|\bonly ever (use|write|run|call|add|put)\b|\b(rules?|conventions?) (for|in) (this|the|our) (repo|repository|project|codebase|workspace)\b|\bone (?:more )?rule from (?:me|my side|my end|us)\b|\b(?:new|one more|another) rule\s*[:—–]|^(?:and |also |so |oh,? )?(?:a|my) rule\s*[:—–]|\b(?:feel free|you're free|you are free|you can go ahead and) \w+|\b(?:is|are) (?:fine|ok|okay|allowed) (?:at any (?:hour|time)|any ?time|whenever)\b|\b(?:nothing|nobody|no one)\b[^.;?]{1,60}\bever\b|\b(don't|do not) (hand-|manually )?(use|add|touch|change|modify|commit|push|run|write|create|put|rename|delete|remove|mock|edit|reformat|bump|upgrade)\b)`)

// Convention is a user's statement of how things are done here.
var Convention = lazyre.New(`(?i)(\bin (this|the|our) (repo|repository|project|codebase|team|code),? we\b|\bby convention\b|\bthe convention\b|\bour convention\b|\bwe (always|usually|consistently|never) \w+|\bhere we (use|write|put|keep|name|prefer)\b)`)

// AsksWhy is a prompt asking why something behaves as it does: "Why
// are the fades on the pars steppy at low level?", "How come the export
// is empty?", "What's causing the 502s?", or whose fault it is: "… they
// fade out slowly below about 10%. Is that us?", or a guess to check:
// "I bet it's the sheet again. Can you look?".
var AsksWhy = lazyre.New(`(?i)(?:^|[.!?]\s+)(?:but |so |and |ok,? )?(?:why (?:is|are|do|does|did|was|were|would|has|have|can't|won't|doesn't|don't|isn't|aren't|didn't|wasn't|weren't)\b|how come\b|what(?:'s| is) (?:causing|behind)\b|what causes\b|any idea why\b|(?:is|was|could) (?:that|it|this) (?:be )?(?:us|ours|our (?:fault|code|doing|bug|side)|a bug|(?:on|in) our (?:side|end|code))\b|(?:can|could) you (?:look|check|find out|dig|investigate)(?: into)? (?:why|what(?:'s| is)? (?:causing|going on|wrong|happened))\b)[^?]*\?|\bi (?:bet|suspect) (?:it's|it is|that's)\b[^.?!]*[.!]\s+(?:can|could) you (?:look|check|have a look|take a look|dig in)`)

// CauseIntro announces a root cause in the next sentences: "Found it.",
// "I see the problem now.", "Here's what happens.", "So it wasn't the
// cache at all.", "I found what happened to Nether Edge: …"; or, from
// the user, acknowledges one just told: "Oh that explains a lot."
var CauseIntro = lazyre.New(`(?i)^(?:the|these|those|this|that|all (?:the|these|those)) (?:[\w.-]+ ){0,3}(?:is|are|was|were) (?:all |entirely )?(?:our|my) (?:own )?(?:doing|fault|bug|mistake)\b[^.]*[.!]?$|^(?:(?:oh|ah|aha|ahh|huh|right|ok|okay|well|wow)[,!.]?\s+)?(?:that|this|which) explains (?:it|everything|a lot|the (?:\w+ )?(?:errors?|failures?|crash(?:es)?|timeouts?|drops?|flicker|behaviou?r|[45]\d\ds?|hangs?|gaps?|spikes?|delays?|lag|mismatch(?:es)?|duplicates?|confetti|resets?|logouts?))[.!]?$|^(?:so,?\s+)?(?:it\s+)?turns out\b[^.,;:]{0,50}\b(?:our (?:own )?(?:doing|fault)|self-inflicted|on us|ours)\W*$|^(?:the|this|that) (?:trace|log|logs|dump|profile|output|stack trace|timeline|capture|pcap|flame graph|core dump|strace|backtrace) (?:explains|shows what happened to|accounts for)\b[^.,;:]*[.:]?$|^(i )?((see|found|spotted) (it|the (issue|problem|bug|culprit|cause|root cause))|got the (issue|problem|bug|culprit|cause|root cause))\b[^.]*[.:!]?$|^(here's|here is) (the|what) (issue|problem|bug|happen(ed|s)|went wrong|(is|'s) going on)\b|^(so )?(it|this|that) (wasn't|was not|isn't|is not) [^.]{1,60}\b(at all|after all)\W*$|^((it's |it is )?(fixed|found it)[,.]? (and )?)?(it|this|that) (was|is) (in )?(the|a|an|our|your) [^,.;]{1,40}, not (in )?(the|a|an|our|your) [^,.;]{1,40}\W*$|\b(?:i|we) (?:found|found out|figured out|worked out|tracked down|know|see|can see) (?:now )?(?:what happened|what went wrong|what was going on)\b[^.]*[.:!]?$`)

// PrefAsk is a preference put as a question: "can you stop …?".
var PrefAsk = lazyre.New(`(?i)^(can|could|would|will) you (please )?(stop|not|always|never|avoid|quit)\b|\bwhy (do|did|are|would) you (keep|always|still)\b`)

// WeDecided is a decision the user reports, not an instruction.
var WeDecided = lazyre.New(`(?i)\b(decided|agreed|settled on|we('ll| will|'re going to| are going to)|let'?s|going with|go with|switched to|opted)\b`)

var PrefRule = lazyre.New(`(?i)\b(from now on|going forward|in (the )?future|always|never|every time|each time|don't ever|do not ever|no more|you keep|forget what i said about)\b|(?:^|[,.;:!—–(]\s*|\b(?:please|pls|also|and|so|just|let'?s|can|should|to|oh|then|now|you|ever|ok|okay|but)\s+)stop \w+ing\b`)

var OneOff = lazyre.New(`(?i)\b(for now|this time|right now|yet|today|at the moment|in this (pr|commit|change|file|function)|for this (one|task|change|pr)|just this once|here)\b`)

// Layout says how data is laid out, which holds as a setting does: "The
// Stock tab is one row per SKU, … shops in columns C to F", "one file
// per tenant".
var Layout = lazyre.New(`\b(?i:one (?:row|line|file|record|document|entry|object|message|event|folder|directory|sheet|tab|table|page|topic|queue|partition|shard) (?:per|for each))\b|\b(?i:in columns?) [A-Z]{1,2} (?:to|through|-|–) [A-Z]{1,2}\b`)

// EnvCue is a statement of the setting: a host, a port, where a thing
// runs or lives; where files arrive ("both banks drop camt.053
// statements every morning into /srv/bank/inbox/<bank>/"); what a thing
// defaults to, not "I'll raise the default to 4000 MB", a plan.
var EnvCue = lazyre.New(`(?i)(\baddress(?:es)?\b[^.;]{0,40}\b0x[0-9a-f]+|\b(?:the|its|their|our) [\w -]{2,40}\b(?:becomes|is now) ` + "`" + `[^` + "`" + `]{4,}` + "`" + `|\b(?:publish|subscribe|consume|produce|emit)(?:s|es|d)? (?:[\w-]+ ){0,4}(?:to|from|on) ` + "`" + `|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes|min|mb|gb|kb|%)\s+(?:instead of|down from|up from|rather than)\s+(?:about\s+|~)?\d|^(?:our |the )?(?:[\w-]+ )?(?:budgets?|targets?|slos?|quotas?)\b[^.;:]{0,60}:\s*[^.;]*\d|^(?:the )?[\w-]+(?: [\w-]+)? (?:in|at) ` + "`" + `?[\w.-]+/[\w./-]+\.\w{1,5}` + "`" + `? [a-z]+s\b|\b(reachable|available|accessible|exposed|running|listening|served|hosted|deployed|published|mapped|forwarded) (at|on|via|from|under|to)\b|\b(deploy|deploys|deployed|build|builds|release|releases|ship|ships|test|tests|lint|run|runs|start|starts|migrate|migrates) (it |them |everything |things )?(with|via|using|through|by running)\b|\b(ship|ships|publish|publishes|release|releases) (it|them) as\b|\b(goes|go|routed|proxied) through\b|\breads? (its |the |their )?\S+( \S+)? from\b|\(default\b|\b(namespace|cluster|region|bucket|zone|account|registry|profile|context)\b|\bmust (be|run|stay|live|sit) (on|in|at|under|inside|behind)\b|\b(runs?|running|lives?|living|listens?|listening|sits?|served|serves?|hosted|deployed|mounted|exposed|installed|located|stored|kept|defined|declared|configured|generated|built|vendored|pinned) (on|in|at|under|from|via|with|to|by|as|inside|behind)\b|\b(is|are|was|were|'s|'re) (on|at|in|under|behind|inside) \S*[0-9/:.` + "`" + `~]|\bpoints? (to|at)\b|\bdefaults to\b|\b(?:will|would|should|can|must|to|it|they|we|and|now) default to\b|\b(is|are) set (to|in)\b|\bset to\b|\brequires?\b|\bneeds? (go|node|python|java|ruby|rust|\w+ [0-9v])|\bexpects?\b|\b(we're|we are|it's|it is|is|are|now) (on|using)\b|\b(the (project|repo|repository|app|service|codebase|ci|build|team|backend|frontend)|we|ci) (uses|is using|relies on)\b|\b(is|are) run (with|via|by|using)\b|\brun (it |them |tests |the tests )?(with|via|using)\b|\bmoved to\b|\bbumped (to|from)\b|\bupgraded (to|from)\b|\bdowngraded to\b|\bversion\b|\bthe (\w+ )?(command|port|host|hostname|url|endpoint|path|directory|dir|folder|database|db|bucket|region|cluster|namespace|branch|image|registry|queue|topic|key|id|model|provider|driver|runtime|toolchain|env var|variable) (is|was|for|lives|sits|becomes|is now)\b|\benv(ironment)? var(iable)?s?\b|\b(is|are) (` + "`" + `|/|~|https?:|\d)|\b(?:drops?|dropped|lands?|landed|arrives?|arrived|ends? up|ended up|goes|go|written|saved|uploaded|copied|synced|delivered|exported|imported)\b(?:[^.;]|\.\w){0,60}\b(?:into|in|to|under|at) ` + "`" + `?/[\w.<>-]+/)`)

// EnvLabel opens a statement of the setting by its label: "Setup:
// eight 20 hl unitanks FV1-FV8, each with …", "Hardware: a Pi 4".
var EnvLabel = lazyre.New(`(?i)^(?:(?:our|the|my) )?(?:setup|hardware|environment|stack|infrastructure|infra|versions?|toolchain)\s*:\s*\S[^.;]*\d`)

// NextTopic is a user naming what to do now: "Next: occupancy
// schedules. We want to push the weekly hours into the controllers" is
// this session's request, not work left, when the message goes on to
// ask it.
var NextTopic = lazyre.New(`(?i)^(?:ok,? |okay,? |so,? |and |then )?next(?: up)?\s*:`)

// ElidedRule is a rule that leaves out what it is about: "Please not in
// appsettings.json" after the sentence that names the passwords.
var ElidedRule = lazyre.New(`(?i)^(?:and |but |oh,? )?please,? not (?:in|into|on|with|through|via|from|to)\b`)

// AskNow is a user asking for work in this session: "add the test
// that is still missing" is the request, not an open item.
var AskNow = lazyre.New(`(?i)^(ok,? |so,? |now,? )?(please |can you |could you |would you |let's |go ahead and )?(add|fix|make|write|implement|create|update|remove|delete|run|find|look|check|change|move|rename|refactor|debug|investigate|figure|set up|build|deploy|try|do|finish|complete|wire|hook up|clean up)\b`)

// LaterCue is work put off to another time, as users say it.
var LaterCue = lazyre.New(`(?i)\b(tomorrow|later|next (time|session|week|month|sprint)|at some point|eventually|remind me|don't forget|todo|to-do|follow[- ]?up|come back to|revisit|for another (day|session|time)|after (that|this)|once \w+)\b`)

// Flagged is the agent raising a problem beside the work it reports
// ("One more thing I noticed: …", "A gap I want to flag: …"): work
// left, which a later session may take up, not what the work came to.
var flaggedRE = lazyre.New(`(?i)^(?:one (?:more |other )?thing\b|(?:and )?(?:that|which) reminds me\b|another thing\b|something (?:else )?(?:to (?:know|note|flag|watch)|i noticed)\b|(?:a|one) (?:gap|caveat|catch|risk|problem) (?:i|we|to|left|remains|with)\b|heads[- ]up\b|fyi\b|what (?:worries|bothers|concerns) me\b|my (?:one )?(?:worry|concern) (?:is|here)\b|while i was (?:in )?there,? (?:i )?(?:also )?(?:noticed|saw|found|spotted)\b|(?:while (?:\w+ing|i was \w+ing)(?: \w+)?,? )?i (?:also )?noticed\b|worth (?:knowing|noting|flagging)\b|(?:one )?caveat\b|there(?:'s| is) (?:a |one )?(?:second|another|separate|different|related|further|new|other) (?:problem|issue|bug|error|catch)\b)`)

// Flagged is flaggedRE less a remark on the choice made: "One thing
// worth saying about the choice itself: the reason FluidNC is the
// better fit …" explains, it leaves no work.
var Flagged flagged

type flagged struct{}

// MatchString reports whether s flags a problem.
func (flagged) MatchString(s string) bool {
	return flaggedRE.MatchString(s) && !remarkOnChoice.MatchString(s) && !changedAside.MatchString(s)
}

// changedAside is one more thing the work had to change, and did: "One
// thing that had to change with the model: bge-m3's scores are shifted
// up …" tells what was done, it leaves no work.
var changedAside = lazyre.New(`(?i)^(?:one (?:more |other )?|another )thing (?:that |which )?(?:(?:i|we) )?(?:had to (?:change|be changed|be adjusted|move|go)|changed|needed changing)\b`)

var remarkOnChoice = lazyre.New(`(?i)^(?:one (?:more |other )?thing|something) (?:(?:that's |that is )?worth (?:saying|explaining|adding|mentioning)|to (?:say|explain|add|mention)) about (?:the |this |that |my |our |your )?(?:choice|decision|pick|reasoning|why)\b`)

var OpenCue = lazyre.New(`(?i)(^open (item|point|issue|question|task)s?\s*:|\b(?:i'd|i would|we'd|we should|you should|you'll want to|you will want to) (?:\w+ ){1,5}?before (?:this|it|that|we|you|the \w+) (?:goes|go|is|gets|ships|launches|is rolled out|rolls out|is switched on) ?(?:live|out|on|public|to production|to prod)?\b|\b(?:i'd|i would|we'd|we should|you should) (?:still )?(?:do|run|try|want) (?:a |an |one )?[^.;]{3,60} before (?:trusting|relying on|counting on|depending on)\b|^(?:before|once|after|when) [^,.;:]{3,60},? i(?:'d| would) like you to \w+|^open(?: (?:from|as of|since|for) (?:today|tonight|this session|now|later|next time))?\s*:|\b(?:we|you) (?:should|need to|have to|must|'ll have to|will have to) (?:pick|choose|decide|settle on|agree on)\b|^next\s*:|^what(?:'s| is) (?:still )?(?:missing|left)\b|\bkeep (?:it|this|that|them) in mind\b|\bstill (empty|unfinished|incomplete|a stub|stubbed( out)?|unimplemented|untested|wip)\b|\bnext up\b|\bneeds? (?:another|a second|a fresh|a new|one more) (?:run|pass|round|calibration|look|check|test|try)\b|\b(?:we|you) (?:still )?(?:need|want|should (?:add|do|build|fix|tackle)) [^.;]{1,60}\bnext\s*(?:[.!]|$)|\bup next\b|\b(?:stays?|remains?) open\b|\bstill (?:say|says|show|shows|mention|mentions|reference|references|list|lists)\b|\b(?:would|'d|might|could) be worth (?:trying|a try|testing|checking|looking (?:at|into)|measuring)\b|\b(?:i'd|we'd|i would|we would) (?:make|do|tackle|try|take|pick up|look at|look into)(?: it| that| this| them)? next\b|^next on (?:the|my|our) (?:list|agenda|plate) (?:is|are)\b|\b(?:has|have|shows?) the same (?:pattern|problem|bug|issue|flaw|mistake)\b|\b(?:is|are) (?:the )?(?:\w+ )?next (?:piece|thing|task|job|bit|item)\b|\b(not|no|don't|won't|isn't|aren't|hasn't|doesn't|skip|without|bother)\b[^.;]{0,60}\byet\b|\b(?:has|have|needs?) to (?:be (?:done|fixed|sorted|solved|addressed|in place)|happen) before\b|\b(?:someone|somebody|a human|an admin) (?:should|needs? to|has to|must|will have to|'ll have to)\b|\bthen (?:it|they|that|this|we) can (?:go|be (?:removed|deleted|dropped|retired))\b|\bwe (?:still )?need (?:a|an)\b[^.;]{0,80}\bbefore\b|[,;]\s*(?:that's|that is|this is|which is) (?:still )?open[.!]?$|\b(couldn't|could not|didn't|did not) (finish|get to|fix|complete|have time)\b|\bstill (times out|timing out|breaks|crashes|hangs|errors|leaks|flakes|throws|can't|cannot|won't|doesn't)\b|\bremind me\b|\bnext (week|month|sprint)\b|\bdon't forget to\b|\bat some point\b|\beventually\b|\btodo\b|\bto-do\b|\bnext steps?\b|\bstill (need|needs|needed|has to|have to|to do|to be|fails|failing|broken|missing|flaky|open|pending|not|doesn't|does not|unclear)\b|\bleft to do\b|^remaining\s*(?:[:—–,]|$|for\b|to do\b|(?:are|is|work|items?|steps?|tasks?|bits?)\b)|\b(?:\d+|one|two|three|four|five|six|several|a few)\s+(?:[\w-]+\s+){0,2}remaining\b(?:\s*[^\s=]|\s*$)|\bremaining\s*(?:[:—–]|(?:work|items?|steps?|tasks?|bits?|issues?|todos?|failures?|tests?|cases?)\b)|\b(?:is|are|still) remaining\b|\bnot yet\b|\bhaven't (yet )?|\bhave not (yet )?|\bblocked (on|by)\b|\bfollow[- ]?up\b|\bopen question\b|\btbd\b|\blater\b|\btomorrow\b|\bnext time\b|\bnext session\b|\bfor another (day|session|time)\b|\b(we'll|we will|i'll|you'll|will) (still )?need to\b|\bfill in (?:the|your) (?:real|actual|right|correct)\b|\b(?:i|we)(?:'ve| have)? made up (?:the|an?|that|this)\b|^(?:to [\w-]+(?: [\w-]+){0,3},\s*)?(?:you(?:'ll)? (?:need|have|want) to\s+)?(?:run|re-?run|apply|trigger|execute|re-?export|re-?deploy|re-?import)\b[^.;]{0,80}\b(?:once(?:\s+(?:with|in|on|against|more|now|so|before|after|to|and)\b|\s*[,.;]|\s*$)|one more time)|\b(?:will|'ll) (?:still |also )?need (?:re)?(?:port|updat|upgrad|rewrit|fix|chang|migrat|work|replac|adjust|revisit|clean|test|review)\w*ing\b|\bwe should also\b|\bneeds? (more|further|to be)\b|\b(is|are|still|remains?|left|stays?)\s+pending\b|\bpending([.:]|$| (review|approval|merge|sign-?off|decision|confirmation)\b)|\bpunt(ed|ing)?\b|\bpark(ed|ing)? (this|that|it)\b|\bcome back to\b|\brevisit\b|\bout of scope\b|\bknown issue\b|\bnot (yet )?(implemented|handled|supported|done|wired|covered|fixed|tested|migrated)\b|\bunresolved\b|\bonce\b[^.;]{0,60}\b(i'll|we'll|i will|we will|you can)\b|(^|\b(is|are|am|been|still|currently|'s|'re|'m)\s+)(still\s+)?waiting (on|for)\b|` + UntilDecidesRE + `)`)

// DoneCue marks a statement that something was finished: it resolves
// an open item that it names.
var DoneCue = lazyre.New(`(?i)\b(done|fixed|added|implemented|finished|resolved|works|working|passes|passing|green|wired|handled|merged|shipped|landed|migrated|removed|answered|ran|completed|recomputed|deployed|backfilled|now)\b`)

var InlineCode = lazyre.New("`([^`\n]{1,40})`")

var TagWord = lazyre.New(`^[A-Za-z][A-Za-z0-9_.:/-]*$`)

var SlashCmd = lazyre.New(`^/[A-Za-z][\w:-]*(\s|$)`)

// SignOff is a prompt that only ends the day's work: "ok, leave it for
// today", "let's stop here", "that's all for now".
var SignOff = lazyre.New(`(?i)^\s*(?:(?:ok(?:ay)?|alright|right|good|great|thanks?(?: you)?|cool)[,.!]?\s+)*(?:let'?s\s+)?(?:leave it|stop|call it a day|call it a night|wrap (?:it )?up|pause|park it|that'?s (?:it|all|enough))(?:\s+(?:here|there|for (?:today|now|tonight|the day)|then))*\s*[.!]*\s*$`)

// SymptomLog is a failure reported with where to read it: "deploys have
// been failing since Friday, the build log is in logs/…", "Connect
// fails, log is in logs/connect-deploy.log". The log is the session's
// evidence, not where the project runs.
var SymptomLog = lazyre.New(`(?i)\b(?:fail\w*|broken|crash\w*|returning [45]\d\d|blew up|dies|dying|keeps dying)\b.*\b(?:logs?|output|stack trace|trace|deliveries|dump)\s+(?:is|are)\s+(?:in|at)\b|\b(?:logs?|output|stack trace|trace|deliveries|dump)\s+(?:is|are)\s+(?:in|at)\b.*\b(?:fail\w*|broken|crash\w*|blew up)\b|^stack trace is in\b`)

// DoThat is work asked for on what was just said: "Put that in,
// please." A standing rule says more than its verb.
var DoThat = lazyre.New(`(?i)^(?:put|make|add|do)\s+(?:that|it|this)(?:\s+(?:in|on|up|so|through|back|stop|go away|happen|work))?,?(?:\s+please)?[.!]?$`)

var OneThing = lazyre.New(`(?i)^(?:(?:ok(?:ay)?|yes|right|now|please),?\s+)*(?:write|build|add|make|create|put|set up)\s+(?:the|a|an|our|me a|me an)\s`)

// Later is how a sentence says the future it asks about, which is no
// rule for the agent: "going forward", "in the future".
var Later = lazyre.New(`(?i)\b(?:going forward|in (?:the )?future)\b`)

var Standing = lazyre.New(`(?i)\b(?:always|never|every|each|whenever|from now on|going forward|in (?:the )?future|any time)\b`)

// TaskSpec is work asked for and then specified: "write the ingest:
// chunk the articles and load them …" asks for one thing to be made, not
// for a way of working.
var TaskSpec = lazyre.New(`(?i)^(?:write|put|name|build|add|make)\s+(?:the|a|an|our)\s+[\w-]+(?:\s+[\w-]+){0,2}\s*:\s`)

// Habit is a behaviour told with how often it happens ("saving from VS
// Code works every time", "slow clients never get cut off"): a report,
// not a wish.
var Habit = lazyre.New(`(?i)\b(?:works|worked|fails|failed|happens|happened|breaks|broke|crashes|crashed|reloads|reloaded|passes|passed|hangs|misses|missed|loses|lost|times out|timed out)\b[^.;,]{0,20}\b(?:every time|each time)\b|\b(?:always|never) (?:works|worked|fails|failed|happens|happened|breaks|broke|crashes|crashed|reloads|passes|passed|hangs|misses|loses|times out|gets?|got)\b`)

// UntilDecidesRE is a value or a state held until someone decides: "I'll
// leave it at 5 until he decides". Work left, for the summarizer
// (OpenCue) and the pack (open.IsTodo) alike.
const UntilDecidesRE = `(?i:\buntil (?:he|she|they|you|we|someone|somebody|the \w+|\w+) (?:decides?|confirms?|approves?|signs? off|gets back to (?:us|me|you))\b)`

// NeverDid is what someone never did, told in the past: "I used
// EasyBuild at my last job, never touched Spack" is a background, not
// the rule "never touch Spack". The word after "never" is its verb
// (Past tells).
var NeverDid = lazyre.New(`(?i)\b(?:never|not once) ([a-z]+)\b`)

// Past reports whether w is a verb in the past tense: "touched", "ran";
// not "embed", "exceed".
func Past(w string) bool {
	w = strings.ToLower(w)
	if strings.HasSuffix(w, "ed") && len(w) > 4 && !strings.HasSuffix(w, "eed") && w != "embed" && w != "shred" {
		return true
	}
	return pastWords[w]
}

var pastWords = map[string]bool{"had": true, "did": true, "was": true, "were": true, "got": true, "made": true, "went": true, "saw": true, "knew": true, "ran": true, "wrote": true, "took": true, "been": true, "seen": true, "done": true, "heard": true, "thought": true, "bought": true, "built": true, "sent": true, "spent": true, "felt": true, "kept": true, "left": true, "lost": true, "met": true, "paid": true, "said": true, "sold": true, "told": true, "understood": true, "won": true}

// PronounTask is an imperative whose object is what was just said ("Put
// it back in service.", "Write that down somewhere."): a task.
var PronounTask = lazyre.New(`(?i)^(?:put|write|use|name|make|add|do|send|move|take|get|bring|set|note|log|file|mark|turn)\s+(?:that|it|this|them|those|these)\b`)

// ThisTask is an imperative about the thing at hand ("put Caddy in front
// of it", "for this test"): what it is for does not tell, "use tabs so
// the diffs stay small" is a rule.
var ThisTask = lazyre.New(`(?i)^(?:put|use|write|name|set|make)\b[^.;]*(?:\b(?:in front of|behind|next to|on top of|for|into|on) (?:it|this|that|them)\b|\bfor (?:this|that) (?:one|test|run|time|job|case|release|file|change)\b)`)

// WhereNote is a note of where a kind of thing is and how it runs: a
// plural noun, what it is done with, a path in code.
var WhereNote = lazyre.New(`^(?-i:[A-Z])[a-z]+s(?: [\w-]+){0,2} (?:with|via|through|using|in|under) [^.;]{0,40}\x60[\w.~-]*/[\w./-]*\x60`)

// Scope is how far a rule reaches: "for every new package".
var Scope = lazyre.New(`(?i)\b(?:every|all|any|each|everywhere|anywhere)\b`)

var ThingHabit = lazyre.New(`(?i)^(?:the|a|an|our|its|this|that|their)\s+((?:[\w'-]+\s+){0,3})(?:always|never)\s+[a-z]+[^s\W]s\b`)

var AgentWord = lazyre.New(`(?i)\b(?:agent|assistant|claude|bot|ai|model|codex|gemini|cursor)\b`)

// VerbCues are the preference cues that are a bare verb.
var VerbCues = lazyre.New(`(?i)^(keep|stick to|make sure|remember to|use|avoid|write|name|put|prefer|stop)\b`)

// DoingLead is how narration before a change starts, which says nothing
// of the change.
var DoingLead = lazyre.New(`(?i)^((now|ok|okay|so|then|first|and|right|good)[,.]? )*((let me|let's|i'll|i will|i'm going to|i am going to|i need to|time to) )?`)

var CatFiles = lazyre.New(`(?:^|[;&|]\s*)cat\s+((?:[^\s;&|<>]+\s*)+)`)

// Numbered is a line of a file as a Read tool shows it: "  12→text"
// or "12\ttext".
var Numbered = lazyre.New(`(?m)^\s*\d+(?:→|\t)`)

// ToUser is what the user is to do or decide, or what the agent could not
// do: "You need to add a BUTLER_API_KEY secret …", "run it for real with
// …", "no CLAP until you say so", "Reminder: …", "I couldn't run it end to
// end here".
var ToUser = lazyre.New(`(?i)^(?:reminder|note|heads up)\s*[:,—–]|\byou(?:'ll| will)? (?:need|have|want) to\b|\b(?:until|unless) you\b|\brun it (?:for real|on|against)\b|^i (?:couldn't|could not|wasn't able to|haven't)\b`)

// NamedWord is a capitalised word inside a sentence: a product, a
// service, a person.
var NamedWord = lazyre.New(`\s[A-Z][\w.-]*[a-z0-9][\w.-]*`)

// Placeholder is what Claude Code's transcript holds in place of a reply
// after a slash command: no outcome, no statement.
var Placeholder = lazyre.New(`(?i)^\s*\(?no response requested\.?\)?\s*$`)

// LogIntro introduces output pasted after it: "CloudWatch says:", "check
// blows up with:", "the 3.3 job prints this now:".
var LogIntro = lazyre.New(`(?i)^.{0,80}\b(?:says|said|shows|showed|prints|printed|gives|gave|returns|returned|reports|logs|outputs|looks like|reads|is this|was this|with|this|these|the following|below|here's|here is|output|log|error|errors|trace|traceback)(?:\s+now)?\s*:$`)

// GotDone is a sentence of a report that tells one more thing done:
// "The archive table got its index (usage_arch_acct_created_idx) in
// migration 0008".
var GotDone = lazyre.New(`(?i)^(?:the |a |an |each |every )?[\w.-]+(?: [\w.-]+){0,3} (?:got|gets|now has|now (?:puts|sets|sends|returns|uses)|was (?:added|moved|renamed|removed|fixed)|is (?:added|fixed|in place))\b`)

// Courtesy opens a reply to thanks: "You're welcome — tree is clean"
// reports the clean tree.
var Courtesy = lazyre.New(`(?i)^(?:you're welcome|you are welcome|no problem|happy to help|glad (?:it|that|to) help\w*)[,.!]?\s*(?:[—–-]\s*)?`)

// Acknowledges is the agent granting the user a point: "I know this
// costs some quiet."
var Acknowledges = lazyre.New(`(?i)^(?:i know|i reali[sz]e|i understand|i get (?:it|that)|i hear you|i appreciate)\b`)

// HandOver is what the agent leaves the user to run, which says nothing
// done: "For you: `cargo sqlx prepare`, `cargo nextest run`."
var HandOver = lazyre.New(`(?i)^(?:for you|on your (?:side|end)|your turn|to (?:check|verify|try) (?:it|this|that))\s*[:—–]`)

// Offer is the agent offering more, which says nothing done: "let me
// know how the long moves go", "ping me when you want X looked at".
var Offer = lazyre.New(`(?i)^(?:let me know|ping me|just ask|shout)\b[^;:—]*$`)

// ChoiceAfterReason is a choice said after its reason: "Since the ETA
// has no year, I take the next occurrence from now".
var ChoiceAfterReason = lazyre.New(`(?i)^(?:since|because|as) [^,;:]{5,100}, (?:i|we) (?:always )?(?:take|use|treat|keep|pick|count|store|skip|round|read|map|send|write|ignore|fall back to|default to)\b`)

// DesignLabel is a design answer's label: "Storage: positions go into
// hourly Parquet files …". Labels that report (Problem, Note, Result …)
// are in labelReports.
var DesignLabel = lazyre.New(`^([A-Z][a-z]+(?:[ -][a-z]+){0,2}):\s+`)

// DeliberatelyNot is the agent leaving a thing unused on purpose: "I'm
// deliberately not using the navigational status — crews rarely switch
// it".
var DeliberatelyNot = lazyre.New(`(?i)\b(?:i'm|i am|we're|we are|i|we) (?:deliberately|intentionally|purposely|on purpose) (?:not [a-z]+ing|didn't [a-z]+|did not [a-z]+|left [\w.-]+ out|kept [\w.-]+ out)\b`)

// OnHost is a thing said to run on a host named with its number: "aisd
// runs on ais01, the Debian 12 VM, as aisd.service".
var OnHost = lazyre.New(`(?i)\b(?:runs?|lives?|installed|deployed|hosted|served)\b[^.;]{0,30}\b(?:on|at) [a-z][a-z-]{1,20}\d{2}\b`)

// ToolVersion is a tool's version said with "is": "DuckDB on ais01 is
// the 1.1.3 CLI".
var ToolVersion = lazyre.New(`\b[A-Z][\w+-]*(?: on [\w.-]+)? is (?:the |at |on )?v?\d+\.\d+\.\d+\b`)

// AsAsked is the agent saying it did as the user said: "MMSI is a `u32`
// in every struct, as you asked."
var AsAsked = lazyre.New(`(?i),?\s*(?:as|like) you (?:asked|said|wanted|requested|suggested)(?: (?:for|me to))?\b`)

// RuleAsk is the user asking for something to hold: "please make sure
// the API never lists …".
var RuleAsk = lazyre.New(`(?i)\b(?:make sure|ensure|should|must|please|has to|have to|needs? to)\b`)

// InsteadLead opens what is done in place of what the sentences before
// turned down: "Instead, every missing clock-out lands on …" (not
// "Instead of …").
var InsteadLead = lazyre.New(`(?i)^(?:so |and |but )?instead(?:,\s*|\s+)`)

// WantsThing is the user asking for a thing to be made: "And one more
// thing: I want a weekly CSV of zone temperatures per building …", "we
// also need an export for the auditors".
var WantsThing = lazyre.New(`(?i)^(?:(?:and|also|oh|plus),? )?(?:(?:one more|another|last|other) thing\s*[:,—–]\s*)?(?:i|we) (?:also |still |really )?(?:want|'d like|would like) (?:a|an|one|weekly|daily|monthly|nightly)\b`)

// FixedTo is the agent's report of the value it gave what it was
// explaining.
var FixedTo = lazyre.New(`(?i)^(?:so |and )?i (?:changed|switched|set|moved|made|turned|replaced) (?:it|that|this|them|those) (?:to|with|into) \S`)

// SetTo is the agent setting a named thing to a number: "I've set the
// impact coefficient to k = 0.15, which puts …", "I raised the timeout
// to 1800 seconds". Said with "I've", it is no narration.
var SetTo = lazyre.New(`(?i)^(?:so |and |then )?i(?:'ve| have)? (?:set|changed|raised|lowered|bumped|reduced|increased|dropped|capped) (?:the |our |its |their )?[^.;,]{2,60}? (?:to|at) (?:\w+ ?= ?)?[^\s.;,]*\d`)

// SetDone is SetTo said with "I've" and a verb that sets: the setting as
// the work leaves it ("I've set the batch to 12 points per request for
// every site"), a choice whatever the number measures. "I've reduced the
// failing tests to 3" reports progress.
var SetDone = lazyre.New(`(?i)^(?:so |and |then )?i(?:'ve| have) (?:set|changed|capped|bumped|raised|increased) `)

// Invariant is the agent telling what must stay as it is and why:
// "those must never change once a build is out", "renaming an id
// silently breaks every saved session".
var Invariant = lazyre.New(`(?i)\b(?:must|should|can) never\b|\bmust not (?:change|be (?:renamed|changed|reused|edited|moved))\b|\bnever (?:be )?(?:renamed|changed|reused)\b|\bsilently break`)

// OnlyBy is how a thing was made to behave, with the reason it does no
// more: "It only prints a notice on stderr and never downloads anything
// itself, since brew and scoop own the install."
var OnlyBy = lazyre.New(`(?i)^(?:it|the [\w-]+(?: [\w-]+)?) only (?:prints|warns|logs|notifies|writes|sends|checks|stores|keeps|returns|touches|updates|reports|shows|emits|caches|retries)\b[^.;]{0,160}\b(?:since|because)\s+\w+\s+\w+`)

// FoundIt is "There it is.": a find announced, not a choice ("sqlc it
// is").
var FoundIt = lazyre.New(`(?i)^(?:there|here|that|this|so|yes|yeah|what|where|which) it is[.!]?$`)

// CountsWork is a count of the things done.
var CountsWork = lazyre.New(`(?i)^(?:(?:one|two|three|four|five|six|several|a few|a couple of|some|\d+) (?:more |separate |different |unrelated )?(?:fix|fixes|change|changes|things|updates|parts|steps|issues|bugs)|all (?:done|set|three|four|of them))\b[^.]*\.?$`)

// Aside is a later paragraph's proposal or caveat ("If you agree I'll
// …", "One thing I can't settle myself: …"): what is left open, not
// what the work came to.
var Aside = lazyre.New(`(?i)^if\b|\b(i'll|i will|we'll|we will|i'd suggest|shall i|i'm going to|can't|cannot|couldn't|haven't|hasn't|isn't yet|not yet)\b`)

// Options is a list of the choices to make ("Two candidates: A or B"),
// which the decision that follows settles: not the approach.
var Options = lazyre.New(`(?i)^(two|three|several|a few|some|the) (candidates|options|alternatives|choices|ways)\b`)

// Plans is the agent saying what it will change, which before a change
// is its approach, not narration of the next look.
var Plans = lazyre.New(`(?i)^(i'll|i will|i'm going to|i am going to|we'll|let's) (\w+ ){0,2}?(make|change|move|replace|switch|rewrite|add|remove|use|cache|split|guard|wrap|limit|raise|lower|bump|set|keep|drop|turn)\b`)

// ActionLine is a line of the agent's report of what it did ("Changed X
// to …"): an outcome, not a standing fact.
var ActionLine = lazyre.New(`(?i)^((done|fixed|finished)\b[\s:;,—-]|changed|added|updated|removed|renamed|created|fixed|refactored|replaced|wrote|implemented|deleted|extracted|introduced|made|ran|set up|wired|edited|adjusted|tweaked|cleaned|moved \S+ (into|out of))\b`)

// ReportLead is the head of a line of the agent's report: "Done: ",
// "Changed — ".
var ReportLead = lazyre.New(`(?i)^(done|changed|fixed|switched|updated|reverted)\s*[:—–-]\s*`)

// DoingInstead is a fault told as what a thing is doing instead of what
// it should: "webhook tasks are writing into the public schema instead
// of the tenant's".
var DoingInstead = lazyre.New(`(?i)\b(?:is|are|was|were|keeps?|kept) \w+ing\b[^.;]{0,80}\binstead of\b`)

var ChoiceVerb = lazyre.New(`(?i)(^(?:also,? |and |so )?(?:[\w' -]{1,30}:\s+)?(use|prefer|keep|store|switch|move|replace|make|put|drop|pin|set|change|cap|limit|raise|lower|cut|bump)\b|\b(let'?s|should|make it|set it|we'll|i'd|want)\b)`)

// NowRE marks a statement about a new state, not a standing behaviour
// ("returns nil instead of an error" is how it works, not a change).
var NowRE = lazyre.New(`(?i)\b(now|no longer|switched|moved|migrated|changed|bumped|raised|lowered|reverted|replaced|from \S+( \S+)? to)\b`)

// LeadPhrase is a phrase before the clause it sets (its reason, its
// time): "Because of the late-data bug, the cutover moves from May 4th to
// May 11th". Unlike reasonFirst, which splits off a reason, it is only
// passed over to find the clause.
var LeadPhrase = lazyre.New(`(?i)^(?:because of|due to|given|after|since|thanks to|with)\b[^,;]{1,80},\s+`)

// PastDeed tells, besides telling.ToldPast, what happened, which no
// design rule states: "we did a plain `POST` each time, so each resend
// created another Observation".
var PastDeed = lazyre.New(`(?i)\b(?:did|had|created|came|went|broke|lost)\b`)

// TodoLabel heads a list of work left: "Remaining, in the order I'd do
// them:", "Still to do:", "Next steps:".
var TodoLabel = lazyre.New(`(?i)^(?:remaining|still (?:to do|open|left)|left to do|what's left|next steps?|to-?dos?|open (?:items|points|tasks))\b[^:]{0,50}:$`)

var FoundColon = lazyre.New(`(?i)^(i )?(see|found|spotted|got) (it|the \w+( \w+)?):\s+\S`)

var CmdWith = lazyre.New("(?i:\\b(?:with|via|using|by running|run|running))\\s+`[a-z.][\\w./+-]*\\s[^`]{3,}`")

var CmdAfter = lazyre.New("^(?:\\S+\\s+){3}[^`:]*:\\s*`[a-z.][\\w./+-]*\\s[^`]{3,}`\\.?$")

// OutputSaid is what a command or a check printed, said with it:
// "fails with `relation users does not exist`", "the failing
// assertion is this one: `expected 200, got 502`".
var OutputSaid = lazyre.New(`(?i)\b(?:fail(?:s|ed)?|crash(?:es|ed)?|error(?:s|ed)?|exit(?:s|ed)?|dies|died|panic(?:s|ked)?|abort(?:s|ed)?)\s+with\b|\b(?:error|assertion|output|response|message|log|trace|says|said|printed|prints|shows|showed)\b[^:]*:\s*` + "`")

// StillTo is a command that has yet to run somewhere ("it has to
// run against the Deploy KV too, with `deno run …`"): work left.
var StillTo = lazyre.New(`(?i)\b(?:it|this|that|they|these|those) (?:still )?(?:has|have|needs?) to\b[^.;]{0,60}\b(?:too|as well|still|yet)\b`)

var RanIt = lazyre.New(`(?i)^(?:so |then |and )?(?:(?:i|we)(?:'ve| have)? (?:\w+ed|ran|did|found|saw|got|made|wrote|built|tried)|reproduced|ran|tried|tested|checked|confirmed|verified)\b`)

var CmdSubject = lazyre.New("(?:^(?:(?i:so|and|now|then),?\\s+)?|,\\s+(?i:so|and)\\s+)`[^`]*\\s[^`]*`\\s+(?:now\\s+|also\\s+|only\\s+|still\\s+)?([a-z]+s)(?:\\s+[^\\s.]+){3}")

var RecordCue = lazyre.New(`(?i)^(for the record|for reference|for future reference|worth knowing|good to know|worth noting|note for later)\b`)

// Retold is the agent telling the user what they said or did, or what
// it reads next: "You said the canary has run since last night; let me
// read its errors", "You ran it an hour ago and said the panel is
// empty". The user's own words say it, where they are a fact.
var Retold = lazyre.New(`(?i)^you (?:said|ran|pasted|mentioned|told me|asked|wrote)\b|[;,—–]\s*(?:so |and |now )?let me (?:check|look|read|see|run|grep|open|inspect|find|pull|dig|try)\b`)

// ChoseWhy gives the reason for what the speaker chose, not for what went
// wrong: "Synapse 1.98 — that's why I pinned the compose image".
var ChoseWhy = lazyre.New(`(?i)\b(?:that'?s|that is|which is|this is) why (?:i|we)(?:'ve| have| had|'d)? (?:\w+ed|chose|went|picked|kept|left|set|put|made|wrote|built|took|use|run|keep|stick)\b`)

// Supposed opens a case supposed, not found: "If the slot turns out to be
// full, …", "Should the insert fail, …".
var Supposed = lazyre.New(`(?i)^(?:and |but |then )?(?:if|unless|in case|should)\b`)

// NarrowCause is a cause told as what the code did too little, or as
// whose bug it was: "the converter only looked at the digit nibble, so
// every credit note came through as a positive amount", "the mismatches
// were a converter bug, not a Java one".
var NarrowCause = lazyre.New(`(?i)\bonly (?:looked at|read|checked|handled|took|used|compared|matched|considered|counted|kept|parsed|decoded|tested)\b[^.;]{0,100}?,? so\b|\b(?:was|were|is|are) (?:a|an|the) [\w-]+ (?:bug|issue|problem|mistake|regression), not (?:a|an|the|in)\b`)

var SinceTime = lazyre.New(`(?i)\bsince\b((\s+(at least|about|around|roughly|early|late|last|this|the))*\s+(yesterday|today|tonight|morning|afternoon|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|week|month|year|night|release|upgrade|update|deploy|migration|then|january|february|march|april|may|june|july|august|september|october|november|december|\d)|\s+(we|you|i|they) (upgraded|updated|deployed|merged|moved|switched|started|added|changed|released|migrated))`)

var LetMe = lazyre.New(`(?i)^(?:ok,? |now,? |first,? )?let me (\w+)`)

// DoingNow opens the step the agent takes now with its verb: "Moving
// kestrel's pull later so they don't compete, then a first restic run."
var DoingNow = lazyre.New(`(?i)^(?:(?:now|next|first|then),? )?(?:moving|writing|adding|checking|running|switching|setting|changing|updating|fixing|rewriting|wiring|creating|rebuilding|restarting|testing|applying|copying|renaming|removing|bumping|putting|pointing|turning|enabling|disabling|installing|deploying|pushing|reverting|trying|looking|reading|measuring|comparing)\b`)

// GerundSubject is a gerund that is a sentence's subject, a thing to do
// and no step taken now: "Testing on Windows still needs to happen",
// "Reading the config from env vars is not implemented yet".
var GerundSubject = lazyre.New(`(?i)^\w+ing\b[^,.;:]{0,60}?\b(?:is|are|was|still|needs?|has to|have to|should|must|isn't|aren't|not)\b`)

// PronounLead is work left whose subject is a pronoun for what the
// sentence before said ("It's flaky; I haven't found why yet"): it joins
// that sentence only when both fit in one item.
var PronounLead = lazyre.New(`(?i)^(?:it's|it is|it|this|that|they're|they are|they)\s`)

// RefersBack is work left whose object is a pronoun for what the
// sentence before said: "I haven't fixed that yet", "Haven't looked
// into it.", "It's flaky; I haven't found why yet", "We need a replica identity on both before the
// initial sync", "I'll write it next time.".
var RefersBack = lazyre.New(`(?i)^(?:i'll|i will|we'll|we will|let's|i can|we can) (?:\w+ ){1,2}(?:it|that|this|them)(?: (?:next time|tomorrow|later|next session|next week|then|first|too|as well|after (?:that|this|lunch)))?[.!]?$|^(?:but |and )?(?:(?:i|we)(?: still)? )?(?:haven't|have not|didn't|did not|couldn't|could not|won't|can't|cannot)(?: yet)? (?:fix|fixed|do|did|done|handle|handled|address|addressed|tackle|tackled|touch|touched|look(?:ed)? (?:at|into)|get to|got to|chase|chased)\s+(?:that|it|this|those|them)\b|^(?:(?:it's|it is|that's|that is|this is) )?not (?:fixed|done|handled|addressed|solved|touched) (?:yet|either)\W*$|\bkeep (?:it|this|that|them) in mind\b|\b(?:i'd|we'd|i would|we would) (?:make|do|tackle|try|take|pick up|look at|look into) (?:it|that|this|them)\b|\b(?:on|for|to|in|of|from) (?:both|either)(?: of them)?\b|\b(?:pick|choose|decide on|settle on) (?:one|either|between them)\b`)

// Deferred is the agent putting off what the sentence before raised:
// "…, so I'd look at it separately".
var Deferred = lazyre.New(`(?i)\b(?:i'd|i would|we'd|we should|i'll|we'll|i can|we can) (?:look at|look into|deal with|handle|fix|tackle|chase|take) (?:it|that|this|them)(?: on)? (?:separately|another time|in a separate (?:change|pr|session|commit))\b`)

// ShouldBe is a user saying how something should behave from now on,
// with the number that says how: "usage sync should run every 15
// minutes", "tokens should expire after 30 days".
var ShouldBe = lazyre.New(`(?i)\b(should|must|needs to) (run|live|listen|rotate|flush|sleep|batch|be valid|be good for|be (set|capped|limited|kept|at|under|below|above|over|no more|at most|at least|\d)|stay|expire|retry|wait|time out|fire|poll|refresh|last|keep|cap|allow|hold|default to)\b[^.;?]{0,40}\b\d`)

var WhilePending = lazyre.New(`(?i)\b(while|until|when|whenever|as long as)\b[^,.;]{0,60}\b(is|are|stays?|remains?)\s+pending\b|\b(?:that|which) (?:was|were|had been) (?:pending|open|left)\b|\b(?:never|doesn't|does not|don't|do not|won't|will not|wouldn't)\s+(?:ever\s+)?needs?\s+(?:more|further)\b|\b(?:because|since)\b[^.;]{1,80}\bneeds?\s+more\b|\b(which|that|what) (i|we) (haven't|have not) (yet )?(read|seen|opened|looked at|checked)\b|\b(?:can't|cannot|can not|won't|couldn't) (?:do|make)(?: it)? (?:tomorrow|today|tonight|on \w+day)\b|\b(?:a little|a bit|shortly|moments?|seconds?|minutes?|an hour|hours|a day|days) later\b|\b\d+(?:\.\d+)?\s*(?:ms|s|secs?|mins?|h|hrs?|seconds?|minutes?|hours?|days?|weeks?) later\b|\bfor (?:later|future) (?:use|reference|\w+(?:ion|ing|ment)s?)\b|\b(?:retr(?:y|ies)|tr(?:y|ies)|comes? back|reconnects?|resends?|re-?queues?|redelivers?)\s+(?:it\s+|them\s+)?later\b|\b(?:nothing|nobody|no one|none|whether|if)\b[^.;]{0,30}\bstill (?:say|says|show|shows|mention|mentions|reference|references|list|lists)\b|\b(?:when|whenever|if|that|which|who|whose)\s+(?:\w+\s+){0,3}?(?:has|have|had|gets?|got|with)\s+no\b[^,.;]{1,30}\byet\b|\bwith no\s+[^,.;]{1,30}\byet\b|\b(?:what|whatever|anything|everything|those|the ones)(?: that| which)? still\b|\bthe day after tomorrow\b|\btomorrow's\b|\bwhat (?:they|you|we|customers|people|members|users|it)(?:'ll| will)? (?:get|receive|need|see|have|bake|eat|order) tomorrow\b|\bnext time (?:(?:the|a|an|its|it|they|this|that|[\w-]+) ){0,3}(?:starts?|runs?|restarts?|boots?|deploys?|opens?|loads?|reloads?|connects?|comes? up|gets? (?:started|restarted|deployed))\b`)

var CodeSpan = lazyre.New("`[^`]*`")

// WeakOpen are the words of openCue that also describe a state ("jobs
// stay pending", "the remaining handlers", "needs to be quoted"): alone
// they do not make a statement a plan.
var WeakOpen = lazyre.New(`(?i)\b(pending|later|remaining|needs? (more|further|to be)|waiting (on|for)|eventually|known issue|out of scope)\b`)

// WeDecide opens a decision the speaker makes with others: "let's use
// X", "we'll go with Y".
var WeDecide = lazyre.New(`(?i)^(ok,? |so,? |alright,? )?(let'?s|we('ll| will| are going to|'re going to| should)|we're (dropping|switching|going|moving|keeping)|go with|switch to)\b`)

// Fragment is a clause cut from its sentence: its subject left behind
// ("Is the next hop for 0.0.0.0/0 in every spoke's route table", "Its
// rising edges are …") or begun inside parentheses ("A 33.3 ms step)
// with sleep_until …").
var Fragment = lazyre.New(`(?i)^(?:its|is|are|was|were|has|have|does|do)\b|^[^(]*\)`)

// EndsOpen is a statement that stops where its object should be: "You
// can replay one with".
var EndsOpen = lazyre.New(`(?i)\b(?:with|for|to|of|in|on|at|by|from|into|via|the|a|an)$`)

// Anaphoric is a statement that points back into the conversation: its
// subject a pronoun ("It hadn't been written", "That's why …", "Nothing
// stops that …"), the object of a short one ("I marked it exclusive"),
// a bare value or a name chosen ("29318 it is", "Array it is"), or a
// short order about what it refers to ("Make it 30", "Add both", "Switch
// the provider over"). Core memory is read without that conversation.
var Anaphoric = lazyre.New(`(?i)^(?:it|it's|they|they're|them|which|nothing)\b|^(?:that|this|these|those)(?:'s|\s+(?:is|was|are|were|means|meant|will|would|should|can|could|has|had|have|does|did|makes|made|also|alone|way)\b)|^(?:i|we)(?:'ve| have)? [\w-]+(?: [\w-]+)? (?:it|them|that|this)(?: [\w-]+){0,2}\W*$|^[\d.,:%-]+ it is\W*$|^[\w.-]+ it is\W*$|^(?:ok(?:ay)?,? |yes,? )?(?:make|keep|add|do|use|take|leave|switch|move|put|set|bump|drop|raise|lower|cut)\s+(?:it|them|that|this|both|those|all)(?:\s+[\w.%-]+){0,2}\W*$|^(?:switch|move)\s+(?:the\s+|our\s+)?[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,2}\s+over\W*$|^(?:add|keep|use|take|drop)\s+both\W*$|^(?:ok(?:ay)?,? |yes,? )?go ahead(?: with (?:the|that|this|it|both|those)\b[^.;,]{0,30})?\W*$`)

// ReasonFirst is a reason said before what holds: "Given you know
// EasyBuild and …, I'd go with Lmod 8.7", "Since every
// migration has a down file, you can go ahead and run …".
var ReasonFirst = lazyre.New(`(?i)^(?:and |but |so )?((?:because|since|given(?: that)?)\b[^,;]{3,120}),\s+`)

var SoThen = lazyre.New(`(?i),\s+(?:and\s+)?so\s+`)

// NoneLeft is a check that the old is gone, which names only what no
// longer holds: "Nothing from axum 0.7, Rust 1.79 or Postgres 16 is left."
var NoneLeft = lazyre.New(`(?i)^(?:and |so )?(?:nothing|none|no trace|no mention) (?:from|of)\b[^;]{1,100}?\b(?:is|are) left\b`)

var DefinedAside = lazyre.New(`\((?:that's|that is|i\.e\.,?|which is|aka)\s+([^()]{20,240})\)`)

var CodeName = lazyre.New(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[a-z]+_[a-z0-9_]+\b|\b[A-Za-z]+\d+\b`)

// Retracted is a statement taken back as it is made.
var Retracted = lazyre.New(`(?i)(?:\.\.\.|…)\s*(?:hmm+,?\s*)?no\b|\bhmm+,? no\b|\bno,? wait\b|\bscratch that\b|\bon second thought\b`)

// NoThanks is the user turning things down with the reason after them
// ("And no Camel please, nobody here reads its DSL"):
// "No ESP RainMaker, no cloud: I'm not putting a third party between my
// front door and my LAN."
var NoThanks = lazyre.New(`(?i)^no [\w.+-]+(?: [\w.+-]+){0,3}(?:,? (?:and |or )?no [\w.+-]+(?: [\w.+-]+){0,3})*\s*[:—–]\s*\S.{10,}|^(?:and |also |but )?no [\w.+-]+(?: [\w.+-]+){0,2},? please\b[,;:—–]?\s*\S.{10,}`)

// BareMeasure is a number with at most its unit: "cap it at 100 instead
// of 200" gives a value a new one, it turns down no alternative.
var BareMeasure = lazyre.New(`(?i)^[$€£]?\d[\d.,]*\s*(?:%|[a-z]{1,7})?$`)

// BareValue is an alternative that is one value, a path, a URL, a port
// or a version: "the database now lives at /srv/links.db instead of
// /var/lib/links.db" moved a setting, and turned no option down.
var BareValue = lazyre.New("(?i)^`?(?:[~.]{0,2}/[^\\s`]+|[a-z][a-z0-9+.-]*://[^\\s`]+|:?\\d{2,5}|v?\\d+(?:\\.\\d+)+[\\w.-]*)`?$")

// Labelled is a line that names its subject before a colon, with no verb
// needed after it: "MQTT: broker 192.168.1.20:1883 on the Pi".
var Labelled = lazyre.New(`^[A-Za-z][\w .-]{0,24}:\s+\S`)

// NowDoing is something under way, which ends: "they are draining now",
// "the backfill is running now".
var NowDoing = lazyre.New(`(?i)\b(?:is|are|'s|'re) (?:still )?\w+ing now\W*$`)

// NowHas is what a thing now contains, a description, not a choice.
var NowHas = lazyre.New(`(?i)\bnow (has|have|contains|includes)\b`)

var NowLead = lazyre.New(`(?i)^now,?\s+`)

// SoLead opens the conclusion of what came before: "So the top rung is
// 4500k now."
var SoLead = lazyre.New(`(?i)^so,?\s+`)

// NowNext is the agent naming its next step in a few words: "Now the
// full test run.", "Now the docs.", "Now a real run log from the samples
// folder.", "Now the helper, so the notebooks
// get the same behaviour.", "Now 50 runs in a row.", "Now the workflow:
// the gate before the charge, the new threshold, …"
var NowNext = lazyre.New(`(?i)^now,?\s+(?:the|a|an|some)\s+(?:[\w'-]+\s+){0,3}(?:log|logs|output|diff|config|sweep|trace|profile|numbers)(?:\s+(?:from|of|for|in|on|at|across|with|over)\s+[^.;]*)?[.!:…]*$|^now,?\s+(the|a|an|some|all|for|on to|\d+)(\s+[\w'-]+){1,4}(,\s+(?:to|so|so that|then|in|on|at|for|across|with|where)\b[^.;]*|\s+—\s+[^.;]*|:\s+(?:the|a|an)\s[^.;]*)?[.!:…]*$|^now,?\s+(?:the|a|an)(?:\s+[\w'-]+){1,6},\s+\w+ing\b[^.;]*[.!]?$`)

// OnlyTail is a short sentence without a verb that ends a rule with what
// it allows: "Templates or config only.", "Staging only, never prod."
var OnlyTail = lazyre.New(`(?i)^(?:[\w./*-]+\s+){0,4}(?:only|instead)\b[^.!?]{0,30}[.!]?$`)

// WeLead is the talk before a decision clause: "let's", "we'll", "I
// decided to".
var WeLead = lazyre.New(`(?i)^((i think |i guess |so |ok,? |okay,? |alright,? )?(let'?s|we('ll| will| are going to|'re going to| should| can just| decided to| agreed to| chose to)|i'll|i will|i decided to)\s+)`)

var VariantHead = lazyre.New(`(?i)^(?:a |an |the |plain )?([a-z]+)-([a-z]+)\s+([a-z][\w-]*)\s+(?:is|are|was|were|would|runs|run|does|do|can|can't|cannot|won't|doesn't|don't|needs|need|has|have|breaks|loses|adds|costs|takes)\b`)

var VariantAny = lazyre.New(`(?i)\b([a-z]+)-([a-z]+)\s+([a-z][\w-]*)\b`)

// InParens is a statement aside, in parentheses: "forward only (we
// never run backward in serving)" states no rule; "(never npm)" does.
var InParens = lazyre.New(`(?i)\((?:we|it|they|this|that|the \w+) [^()]*\)`)

// CountedThings is the number of things a count of work left gives:
// "two" of "After the 3 fixes, two things remain."
var CountedThings = lazyre.New(`(?i)\b(two|three|four|2|3|4) (?:things|items|points|issues|problems|questions|notes|todos|to-dos)\b`)

// Culprit names a cause in a few words and no more: "The culprit is the
// order of things after wake-up.", "The watermark is the problem.",
// "Tying CC1 and CC2 to one 5.1k was my mistake from the CC session."
var Culprit = lazyre.New(`(?i)^there it is\s*:\s*\S|^(?:so,? )?(?:(?:the )?(?:real |actual )?(?:culprit|problem|issue|bug|cause) (?:is|was) [^.,;:]{3,60}|[^.,;:]{3,50} (?:is|was) the (?:real |actual )?(?:culprit|problem|issue|bug|cause)|\S+(?: (?:[^.,;: ]|\.\d)+){1,10} was (?:my|our) (?:mistake|error|bug)(?: (?:from|in|of) [^.,;:]{3,40})?)\.?$`)

// NamedFault names the kind of fault an explanation told, in a sentence
// of its own: "That's coordinated omission.", "That's an MTU problem.",
// "This is a classic race condition." Said after the explanation it
// closes it; said first, the explanation follows. The first group is the
// fault's name, the second its noun.
var NamedFault = lazyre.New(`(?i)^(?:so,? |and )?(?:that|this|it)(?:'s| is| was) (?:(?:a|an|the|just|our|your|classic|textbook|typical|plain|good old) )*((?:[\w+/-]+ ){0,3}?(problem|bug|issue|race(?: condition)?|leak|omission|mismatch|deadlock|livelock|regression|overflow|underflow|starvation|misconfiguration|off-by-one|n\+1|thundering herd|split[- ]brain|collision|exhaustion|fragmentation|inversion|stampede))(?: in action| again| at work)?[.!]$`)

// JudgedFault is a NamedFault's name that judges a fault, denies one or
// turns to another rather than naming the one told: "a hard problem",
// "not a problem", "a separate bug", "the whole problem".
var JudgedFault = lazyre.New(`(?i)\b(?:not|no|never|hardly|another|different|separate|second|other|unrelated|new|minor|small|smaller|big|bigger|major|hard|solved|known|interesting|whole|same|real|actual|nasty|tricky|weird|strange|funny|fun|common|easy|simple|good|bad|open|old|general|serious|huge)\b|n't\b`)

// Remedy turns from what went wrong to what to do about it: "Drop the
// pool to 15", "For the export, I moved the trigger: …".
var Remedy = lazyre.New(`(?i)^(?:(?:so|then|for (?:the |our )?[\w-]+(?: [\w-]+)?|to fix (?:it|that|this)),?\s+)?(?:(?:i|we)(?:'ve| have|'d| would| will|'ll)?\s+(?:make|changed|moved|set|switched|raised|lowered|dropped|bumped|replaced|added|removed|fixed|made|put|capped|cut)|(?:drop|raise|lower|set|cap|bump|switch|move|replace|cut|change|use)\s)`)

// FixFollows marks a sentence that goes on from a root cause to its fix.
var FixFollows = lazyre.New(`(?i)\b(fix|fixed|changed|now|so|hence|that's why|which is why|this (is|was) why|explains)\b|^(?:padding|adding|setting|raising|lowering|moving|switching|changing|bumping|pinning|wrapping|replacing|removing|dropping|passing|making|giving|limiting|capping|splitting|aligning)\s`)

// TopicLead is "A note on tooling: …", "One thing: …": a topic named
// before the statement.
var TopicLead = lazyre.New(`^([^:` + "`" + `]{3,60}):\s+(\S.*)$`)

var Conjunction = lazyre.New(`(,? and |; |, )`)

// Possible is the agent saying what may be changed some day, which is
// neither a choice, nor a replacement, nor work left: "You can grow by
// adding another pair later, or replace one pair with bigger disks". Not
// "You can find …" or "You could still hit the race …".
// "You can now …" says what the work made possible (see prose.go).
var Possible = lazyre.New(`(?i)^(?:(?:and|but|also|plus|later|if needed),? )?(?:you|one) (?:can|could)(?: always| also| still| easily| just| simply| later)? (?:grow|add|extend|expand|replace|swap|move|switch|split|upgrade|scale|raise|lower|increase|decrease|enable|disable|drop|remove|reuse|migrate|convert|attach|detach)\b`)

// PurposeDid is a choice made for a purpose said first: "To keep the
// line count down I tied CC1 and CC2 together to a single 5.1k (R3)".
// Not a check or a run ("To be sure I ran it twice"), nor a step of
// debugging (DebugPurpose).
var PurposeDid = lazyre.New(`(?i)^to (?:keep|save|avoid|stay|cut|get|make|stop|prevent|reduce|limit|speed|free|spare|lower|raise|fit|match|simplify|protect)\b[^,.;:]{3,60},? (?:i|we)(?:'ve| have)? (?:tied|made|set|moved|put|used|kept|chose|split|merged|added|removed|switched|changed|capped|limited|pinned|dropped|replaced|combined|joined|routed|placed|gave|turned|swapped|shared|reused|shortened|lowered|raised)\b`)

// NoneFor is a count of none over a stretch of time after a report, an
// observation and no rule: "droop is 3.17V min now, no resets in an
// hour". Said first ("No deploys for two weeks.") it may be one.
var NoneFor = lazyre.New(`(?i)(?:[,;]|\band|\bbut|\bwith)\s+no (?:more )?\w+s (?:in|for|over) (?:an?|the (?:last|past)|\d+|one|two|three|four|five|six|several|a few) (?:\w+ )?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|runs?|cycles?|reboots?)\b`)

// FineWhy explains why something is fine, which is no cause of a
// failure: "With a plain cable it works, which is why USB-A to C is
// fine".
var FineWhy = lazyre.New(`(?i)\b(?:which|that|this) is why\b[^.;]{0,60}?\b(?:is|are|was|were|stays?|stayed) (?:fine|ok|okay|right|correct|unaffected|safe|intact|clean)\b`)

// CouldBe is what may or would be, not what is: "the free 867 GB could
// become a special vdev", "RAIDZ2 would give the same 16 TB". Lower case
// only: "CAN bus", "since May 2024".
var CouldBe = lazyre.New(`\b(?:could|can|may|would)(?:\s|$)`)

// NowThat is "now that …", which says when, not what holds now.
var NowThat = lazyre.New(`(?i)\bnow that\b[^,;.]*`)

// SoConclusion is a message's argument coming to its point: "So restic
// to B2 for tank/enc/home only, …".
var SoConclusion = lazyre.New(`^So,? ([a-z].{10,})$`)

// ProposalDone labels what follows as a proposal already carried out:
// "My suggestion, now implemented for splits: keep the bars on disk
// unadjusted …", "Proposal, now in `btengine/walkforward.py`: rolling
// walk-forward folds …".
var ProposalDone = lazyre.New(`(?i)^(?:my |the |our )?(?:suggestion|proposal|recommendation|plan|design)s?,? (?:is )?now (?:implemented|in place|done|live|built|wired|applied|in ` + "`[^`]+`" + `|in [\w./-]+\.\w+)[^:]{0,60}:\s+(\S.*)$`)

// DebugPurpose is a purpose of a step that does not last: "To get a stack
// trace I added a panic()", "… for this run only".
var DebugPurpose = lazyre.New(`(?i)\b(?:to see (?:if|whether|what|how)|stack ?trace|reproduc|baseline|for this run|temporar|for now|debug|for testing|to test|bisect)`)

// ClockAt is a time of day a thing was done at: "at 14:05".
var ClockAt = lazyre.New(`\bat \d{1,2}:\d{2}\b`)

// PluralNow is a plural subject, "now" and its verb: "Backtests now draw
// …"; the word it captures must be no preposition ("fails now with a
// different error").
var PluralNow = lazyre.New(`(?i)\b[a-z]\w*s now ([a-z]{3,})\b`)

// CanNow is "you can now …": what the work made possible, not an option.
var CanNow = lazyre.New(`(?i)\bcan (?:\w+ )?now\b`)

// NotSettled is a conclusion that settles nothing yet: "So the old
// behaviour is back until we decide."
var NotSettled = lazyre.New(`(?i)\b(?:is back|still|yet|for now|until|for the moment)\b`)

// SubClause opens a clause that gives a reason or a consequence: ", so
// …", ", which …".
var SubClause = lazyre.New(`,\s+(?:so|which|because|since|as|and so)\b`)

// DoneReport opens the agent's report of what it did, which tells no
// failure whatever it names: "Done: after the 8th failed attempt the job
// is moved into jobs_dead".
var DoneReport = lazyre.New(`(?i)^(?:done|fixed|implemented|finished|added|changed|updated)\s*[:—–]\s*`)

// NobodyElse is a rule that leaves out what it bounds, which the
// sentence before says: "Nobody else, and never you." after "Anna may
// run dbt against prod … with a ticket."
var NobodyElse = lazyre.New(`(?i)^(?:and |but )?(?:nobody|no one|nothing|nowhere|no other \w+) else\b`)

// FixOpens opens a sentence that says the remedy, not the fault: "The
// fix is to give corosync its own network." The cause is told before it.
var FixOpens = lazyre.New(`(?i)^(?:so,? |and )?the (?:fix|remedy|solution|cure|way out) (?:is|was|would be|will be) (?:to|that)\b`)

// NotTheCause says a thing is not what caused the problem: "That isn't
// what caused this", "it wasn't the cause", "not the culprit".
var NotTheCause = lazyre.New(`(?i)\b(?:isn't|is not|wasn't|was not|aren't|are not|weren't|were not|not)\s+(?:what (?:caused|broke|triggered)|the (?:root )?(?:cause|culprit|reason))\b`)

// BareNone is a sentence that only says none of a thing was seen: "No
// alarms.", "No resets."
var BareNone = lazyre.New(`(?i)^no (?:more )?[\w-]+s[.!]?$`)

// Reported is a report of what was run or seen: "Ran the same relief
// again: 3 hours", "checked against a reference mark".
var Reported = lazyre.New(`(?i)\b(?:ran|tested|checked|measured|tried|watched|flew|printed|homed|cut|took|stayed|held|ran it|left it running)\b`)

// Measured is a reading with its unit: "3.17V", "342 mA", "78 °C".
var Measured = lazyre.New(`\d(?:\.\d+)?\s?(?:[mµuk]?[VAW]|°C|ms|[mµun]s|%|[KMG]i?B|[µu]F|[kMG]?Hz|dBm?|rpm)\b`)

// OutVerdict turns down by a pronoun what the sentence before it named:
// "I'd leave it out and use …".
var OutVerdict = lazyre.New(`(?i)\b(?:leave|keep|left|kept|rule|ruled) (?:it|that|this|them) out\b`)

// SoOut is a verdict as the conclusion of what the sentence before
// weighed: "So pg_tileserv is out." Alone it may tell a release: "So
// the fix is out."
var SoOut = lazyre.New(`(?i)^(?:so|then),? ([\w./\x60+-]+(?: [\w./\x60+-]+)?) (?:is|are) out[.!]?$`)

// Feeling is how someone took a failure, which explains nothing: "the
// instructor was not amused".
var Feeling = lazyre.New(`(?i)\b(?:wasn't|weren't|was not|were not|isn't|aren't|is not|are not) (?:very |too |exactly |at all )?(?:amused|pleased|impressed|thrilled|convinced|surprised|interested|bothered|worried|concerned|excited|annoyed|delighted|satisfied)\b`)

// FixLabel heads the list of what a fix changes: "The fix has three
// parts:", "Here's the fix:". "Two fixes:" lists alternatives.
var FixLabel = lazyre.New(`(?i)^(?:so,? )?(?:(?:the|my|our) (?:fix|fixes|remedy|solution)(?: (?:has|comes in|is in|needs|takes) (?:two|three|four|five|\d) (?:parts|pieces|steps|changes))?|(?:here's|here is) (?:the|my) fix)\s*:$`)

// WhatHappens explains a failure just reproduced: "Reproduced: 9
// bookings on a capacity of 8. What happens: `BeginTx` issues a plain
// `BEGIN`, …". Said of no failure it tells a flow ("What happens: the
// user clicks Book, …").
var WhatHappens = lazyre.New(`(?i)^what happens\s*:\s*\S`)

// Reproduced reports a failure seen again on purpose.
var Reproduced = lazyre.New(`(?i)^(?:reproduced|repro(?:duced)? confirmed|i can reproduce it|confirmed)\b`)

// Unknowing is a speaker's "(I) don't know …" with its subject left out,
// which forbids nothing: "Don't know the coil current, Alan will measure
// one on Thursday." It goes up to the clause's end.
var Unknowing = lazyre.New(`(?i)^\s*(?:don't|do not|dunno)\s+(?:know|think|remember|recall|understand|believe|expect|see)\b[^,;:.!?]*[,;:.!?]?`)

// BareReply is an answer to a proposal that names nothing of its own:
// "Keep it, yes.", "Leave them.", "Use that one then." A rule says what
// ("keep it short", "keep them sorted").
var BareReply = lazyre.New(`(?i)^\s*(?:(?:yes|ok|okay|sure|fine|good)[,.!]?\s+)?(?:keep|leave|use|take|drop|skip|ship|merge|do|try|revert)\s+(?:it|that|this|them|those|these)(?:\s+one)?(?:,?\s+(?:yes|please|then|for now|as is|as it is|for the moment))*\s*[.!]?\s*$`)

// NoIdiom opens a reply with an idiom that forbids nothing: "No worries,
// please go ahead".
var NoIdiom = lazyre.New(`(?i)^\s*no (?:worries|need|luck|rush|problem|problems|idea|thanks|way|doubt|kidding|biggie)\b[,.!]?`)

// FlaggedWish is a remark the agent flags that asks for work still to
// come: "One thing I'd still like before we call it closed: …".
var FlaggedWish = lazyre.New(`(?i)^(?:one (?:more |other )?thing|another thing)\s+(?:i'd|i would|we'd|we should)\s+(?:still\s+)?(?:like|want|do|add|check|run)\b`)

// OneOffStep is an instruction for this turn only: "Set the log level to
// 4 and run it again", "Limit the output to 20 lines".
var OneOffStep = lazyre.New(`(?i)\b(?:and (?:re-?)?run|for this run|just for (?:this|now|the test)|again\b|output\b|log level)`)

// OrItem is a list item that is an alternative to the one before: "Or
// patch the import in vendor/.", "Maybe pin urllib3 below 2.0".
var OrItem = lazyre.New(`(?i)^(?:or|maybe|alternatively|perhaps|otherwise)\b`)

// ReplyWhy is a reason a reply gives for the option it took: "I don't
// want CI or the VPS build to need the templ CLI.", "Users move between
// tenants.", not "I'll review it tomorrow."
var ReplyWhy = lazyre.New(`(?i)\b(?:because|since|so that|otherwise|don't want|do not want|can't|cannot|won't|never|always|need|needs|too)\b|^(?:\w+ ){1,3}(?:move|change|is|are|has|have|gets?|breaks?|costs?)\b`)

// RuleDropped takes back a rule or a limit, no alternative weighed:
// "forget the parts limit, add what the circuit needs".
var RuleDropped = lazyre.New(`(?i)\bforget (?:about )?(?:the|my|our|that|this) [\w -]{0,30}?(?:limit|rule|requirement|constraint|cap|budget)\b`)

// HostAt names a machine or a service with its IPv4 address: "The new
// one is pbx01 at 10.20.0.5", "edi01 sits on 10.8.1.20", "the NAS is
// 192.168.1.20". A log's "10.20.0.5:5061 -> 198.51.100.20" says where
// packets went, not where anything is.
var HostAt = lazyre.New(`(?i)\b(?:at|on|is) (?:\d{1,3}\.){3}\d{1,3}\b(?:[^:>-]|$)`)

// RunsVersion is a named product at a dotted version that a machine runs
// or someone installed: "I built Asterisk 20.11.1 from source", "The
// Pixhawk 6C runs PX4 1.15.2", "we're on Postgres 16.4".
var RunsVersion = lazyre.New(`\b(?i:built|installed|compiled|upgraded|updated|flashed|runs|running|run|(?:we're|we are|it's|it is|is|are|now) on|pinned|uses|using)\b (?:(?i:the|a|an|our|their|its|from) )?(?:[A-Za-z][\w+-]* ){0,2}?[A-Z][\w+-]*(?: [A-Z][\w+-]*)? v?\d+\.\d+(?:\.\d+)?\b`)

// Toggled is the agent reporting a setting or a feature it switched on
// or off: "I've also enabled IMU_GYRO_DNF_EN so the gyro filter puts a
// notch on each motor's RPM". With the setting named it is a choice
// that holds, not narration.
var Toggled = lazyre.New(`(?i)^(?:so |and |then |also )?(?:i|we)(?:'ve| have)?(?: also| now| just)? (?:enabled|disabled|turned (?:on|off)|switched (?:on|off))\b`)

// ValueMoved is a setting given a new value, said of the setting: "the
// mission cap goes up to 22 minutes of planned flight", "the retention
// was lowered to 14 days". A measurement that rose or fell is not one.
var ValueMoved = lazyre.New(`(?i)\b(?:goes|go|went|comes|come|came|moves|move|moved) (?:up|down|back) to\b[^.;]{0,30}\d|\b(?:is|are|was|were|gets|got|has been|have been) (?:now )?(?:raised|lowered|increased|reduced|bumped|cut|capped|extended|shortened) to\b[^.;]{0,30}\d`)
