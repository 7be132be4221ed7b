package minilm

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is a BERT WordPiece tokenizer that reproduces Hugging Face's
// BertTokenizerFast (tokenizers' BertNormalizer + BertPreTokenizer + WordPiece
// + the [CLS] … [SEP] template) for uncased BERT vocabularies such as the one
// of all-MiniLM-L6-v2:
//
//   - special tokens ([CLS], [SEP], [PAD], [UNK], [MASK]) written literally
//     in the input are matched first, case-sensitively, and kept whole;
//   - clean text: NUL, U+FFFD and control/format/private-use characters
//     are removed, every white-space character becomes ' ';
//   - CJK ideographs are surrounded by spaces (one token each);
//   - accents are stripped (NFD, then non-spacing marks Mn removed) and the
//     text is lower-cased (strip_accents follows lowercase, as in HF);
//   - split on white space, and every punctuation character (Unicode P* or
//     ASCII punctuation) becomes a token of its own;
//   - greedy longest-match-first WordPiece with the "##" continuation prefix;
//     a word with no segmentation, or longer than 100 characters, is [UNK];
//   - truncation to MaxLen tokens including [CLS] and [SEP].
//
// Character classes come from Go's Unicode tables, which are newer than the
// ones Hugging Face's Rust crates use; a character whose category changed in
// between (e.g. U+16FE4, a non-spacing mark only since Unicode 13) can be
// tokenized differently. testdata/texts.json covers the cases that matter
// (accents, CJK, emoji, control and format characters, special tokens).
//
// A Tokenizer is immutable after loading and safe for concurrent use.
type Tokenizer struct {
	vocab    map[string]int32
	invVocab []string

	lowercase    bool
	stripAccents bool
	chineseChars bool
	cleanText    bool

	unkID, clsID, sepID, padID int32
	unkToken                   string
	prefix                     string
	maxCharsPerWord            int
	special                    []string // literal special tokens, longest first

	// MaxLen is the maximum number of tokens of an encoded text, [CLS] and
	// [SEP] included; longer texts are truncated at the end.
	MaxLen int
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json we read.
type tokenizerJSON struct {
	AddedTokens []struct {
		ID         int32  `json:"id"`
		Content    string `json:"content"`
		Special    bool   `json:"special"`
		Normalized bool   `json:"normalized"`
	} `json:"added_tokens"`
	Normalizer *struct {
		Type               string `json:"type"`
		CleanText          *bool  `json:"clean_text"`
		HandleChineseChars *bool  `json:"handle_chinese_chars"`
		StripAccents       *bool  `json:"strip_accents"`
		Lowercase          *bool  `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int32 `json:"vocab"`
	} `json:"model"`
}

type tokenizerConfigJSON struct {
	DoLowerCase         *bool `json:"do_lower_case"`
	StripAccents        *bool `json:"strip_accents"`
	TokenizeChineseChar *bool `json:"tokenize_chinese_chars"`
}

// LoadTokenizer reads the tokenizer from a Hugging Face model directory:
// tokenizer.json when present, else vocab.txt (+ tokenizer_config.json).
// maxLen is the truncation length including [CLS] and [SEP].
func LoadTokenizer(dir string, maxLen int) (*Tokenizer, error) {
	t := &Tokenizer{
		lowercase:       true,
		stripAccents:    true,
		chineseChars:    true,
		cleanText:       true,
		unkToken:        "[UNK]",
		prefix:          "##",
		maxCharsPerWord: 100,
		MaxLen:          maxLen,
	}
	tjPath := filepath.Join(dir, "tokenizer.json")
	if b, err := os.ReadFile(tjPath); err == nil {
		if err := t.fromTokenizerJSON(b); err != nil {
			return nil, fmt.Errorf("%s: %w", tjPath, err)
		}
	} else {
		vPath := filepath.Join(dir, "vocab.txt")
		if err := t.fromVocabTxt(vPath); err != nil {
			return nil, err
		}
		if b, err := os.ReadFile(filepath.Join(dir, "tokenizer_config.json")); err == nil {
			var tc tokenizerConfigJSON
			if err := json.Unmarshal(b, &tc); err == nil {
				if tc.DoLowerCase != nil {
					t.lowercase = *tc.DoLowerCase
				}
				t.stripAccents = t.lowercase
				if tc.StripAccents != nil {
					t.stripAccents = *tc.StripAccents
				}
				if tc.TokenizeChineseChar != nil {
					t.chineseChars = *tc.TokenizeChineseChar
				}
			}
		}
	}
	if err := t.finish(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Tokenizer) fromTokenizerJSON(b []byte) error {
	var tj tokenizerJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return err
	}
	if tj.Model.Type != "" && tj.Model.Type != "WordPiece" {
		return fmt.Errorf("tokenizer model %q is not WordPiece", tj.Model.Type)
	}
	if len(tj.Model.Vocab) == 0 {
		return fmt.Errorf("tokenizer.json has an empty vocabulary")
	}
	if n := tj.Normalizer; n != nil {
		if n.Type != "BertNormalizer" {
			return fmt.Errorf("unsupported normalizer %q (want BertNormalizer)", n.Type)
		}
		if n.Lowercase != nil {
			t.lowercase = *n.Lowercase
		}
		t.stripAccents = t.lowercase
		if n.StripAccents != nil {
			t.stripAccents = *n.StripAccents
		}
		if n.HandleChineseChars != nil {
			t.chineseChars = *n.HandleChineseChars
		}
		if n.CleanText != nil {
			t.cleanText = *n.CleanText
		}
	}
	if p := tj.PreTokenizer; p != nil && p.Type != "BertPreTokenizer" {
		return fmt.Errorf("unsupported pre_tokenizer %q (want BertPreTokenizer)", p.Type)
	}
	if tj.Model.UnkToken != "" {
		t.unkToken = tj.Model.UnkToken
	}
	if tj.Model.ContinuingSubwordPrefix != nil {
		t.prefix = *tj.Model.ContinuingSubwordPrefix
	}
	if tj.Model.MaxInputCharsPerWord > 0 {
		t.maxCharsPerWord = tj.Model.MaxInputCharsPerWord
	}
	t.vocab = tj.Model.Vocab
	for _, at := range tj.AddedTokens {
		if at.Special && !at.Normalized {
			t.special = append(t.special, at.Content)
		}
		if _, ok := t.vocab[at.Content]; !ok {
			t.vocab[at.Content] = at.ID
		}
	}
	return nil
}

func (t *Tokenizer) fromVocabTxt(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	t.vocab = make(map[string]int32, 32000)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var id int32
	for sc.Scan() {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := t.vocab[tok]; !dup {
			t.vocab[tok] = id
		}
		id++
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(t.vocab) == 0 {
		return fmt.Errorf("%s: empty vocabulary", path)
	}
	for _, s := range []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"} {
		if _, ok := t.vocab[s]; ok {
			t.special = append(t.special, s)
		}
	}
	return nil
}

func (t *Tokenizer) finish() error {
	max := int32(-1)
	for _, id := range t.vocab {
		if id > max {
			max = id
		}
	}
	t.invVocab = make([]string, max+1)
	for s, id := range t.vocab {
		t.invVocab[id] = s
	}
	var ok bool
	get := func(s string) int32 {
		id, found := t.vocab[s]
		ok = ok && found
		return id
	}
	ok = true
	t.unkID = get(t.unkToken)
	t.clsID = get("[CLS]")
	t.sepID = get("[SEP]")
	if !ok {
		return fmt.Errorf("vocabulary lacks %s, [CLS] or [SEP]", t.unkToken)
	}
	t.padID = t.vocab["[PAD]"]
	// Longest first, so that a longer special token wins at the same offset.
	for i := 1; i < len(t.special); i++ {
		for j := i; j > 0 && len(t.special[j]) > len(t.special[j-1]); j-- {
			t.special[j], t.special[j-1] = t.special[j-1], t.special[j]
		}
	}
	if t.MaxLen < 2 {
		return fmt.Errorf("max sequence length %d is too small", t.MaxLen)
	}
	return nil
}

// VocabSize is the number of entries in the vocabulary.
func (t *Tokenizer) VocabSize() int { return len(t.invVocab) }

// Token returns the vocabulary string of id.
func (t *Tokenizer) Token(id int32) string {
	if id < 0 || int(id) >= len(t.invVocab) {
		return t.unkToken
	}
	return t.invVocab[id]
}

// Encode tokenizes text into input ids with [CLS] first and [SEP] last,
// truncated to MaxLen ids.
func (t *Tokenizer) Encode(text string) []int32 {
	ids := make([]int32, 0, 16)
	ids = append(ids, t.clsID)
	limit := t.MaxLen - 1 // room for [SEP]
	t.encodeInto(text, func(id int32) bool {
		if len(ids) >= limit {
			return false
		}
		ids = append(ids, id)
		return true
	})
	return append(ids, t.sepID)
}

// Tokenize returns the WordPiece tokens of text without special tokens and
// without truncation.
func (t *Tokenizer) Tokenize(text string) []string {
	var out []string
	t.encodeInto(text, func(id int32) bool {
		out = append(out, t.invVocab[id])
		return true
	})
	return out
}

// encodeInto emits the ids of text in order until emit returns false.
func (t *Tokenizer) encodeInto(text string, emit func(int32) bool) {
	for len(text) > 0 {
		// Find the earliest literal special token.
		pos, which := -1, ""
		for _, s := range t.special {
			if i := strings.Index(text, s); i >= 0 && (pos < 0 || i < pos) {
				pos, which = i, s
			}
		}
		seg := text
		if pos >= 0 {
			seg = text[:pos]
		}
		if !t.encodeSegment(seg, emit) {
			return
		}
		if pos < 0 {
			return
		}
		if !emit(t.vocab[which]) {
			return
		}
		text = text[pos+len(which):]
	}
}

// encodeSegment normalises, pre-tokenizes and WordPiece-encodes text that
// contains no special token. It returns false once emit refused an id.
func (t *Tokenizer) encodeSegment(text string, emit func(int32) bool) bool {
	norm := t.normalize(text)
	var word []rune
	flush := func() bool {
		if len(word) == 0 {
			return true
		}
		ok := t.wordPiece(word, emit)
		word = word[:0]
		return ok
	}
	for _, r := range norm {
		switch {
		case unicode.IsSpace(r):
			if !flush() {
				return false
			}
		case isBertPunct(r):
			if !flush() {
				return false
			}
			if !t.wordPiece([]rune{r}, emit) {
				return false
			}
		default:
			word = append(word, r)
		}
	}
	return flush()
}

// normalize applies BertNormalizer: clean text, CJK spacing, accent
// stripping and lower-casing, in that order.
func (t *Tokenizer) normalize(text string) string {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(text) + 8)
	for _, r := range text {
		if t.cleanText {
			if r == 0 || r == 0xFFFD || isControl(r) {
				continue
			}
			if isWhitespace(r) {
				r = ' '
			}
		}
		if t.chineseChars && isChineseChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	if t.stripAccents {
		s = norm.NFD.String(s)
		b.Reset()
		for _, r := range s {
			if unicode.Is(unicode.Mn, r) {
				continue
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	if t.lowercase {
		b.Reset()
		for _, r := range s {
			if r == 'İ' { // full case mapping, as Rust's char::to_lowercase
				b.WriteString("i\u0307")
				continue
			}
			b.WriteRune(unicode.ToLower(r))
		}
		s = b.String()
	}
	return s
}

// wordPiece emits the greedy longest-match-first segmentation of word.
func (t *Tokenizer) wordPiece(word []rune, emit func(int32) bool) bool {
	if len(word) > t.maxCharsPerWord {
		return emit(t.unkID)
	}
	// Byte offsets of rune boundaries.
	s := string(word)
	bounds := make([]int, 0, len(word)+1)
	for i := range s {
		bounds = append(bounds, i)
	}
	bounds = append(bounds, len(s))
	var pieces [16]int32
	ids := pieces[:0]
	var key strings.Builder
	start := 0
	for start < len(word) {
		end := len(word)
		found := int32(-1)
		for end > start {
			sub := s[bounds[start]:bounds[end]]
			if start > 0 {
				key.Reset()
				key.WriteString(t.prefix)
				key.WriteString(sub)
				sub = key.String()
			}
			if id, ok := t.vocab[sub]; ok {
				found = id
				break
			}
			end--
		}
		if found < 0 {
			return emit(t.unkID)
		}
		ids = append(ids, found)
		start = end
	}
	for _, id := range ids {
		if !emit(id) {
			return false
		}
	}
	return true
}

// isWhitespace mirrors tokenizers' bert is_whitespace: \t \n \r and the
// Unicode White_Space property.
func isWhitespace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r)
}

// isControl mirrors tokenizers' bert is_control: control, format,
// private-use and surrogate characters (Cc, Cf, Co, Cs) except \t \n \r.
// Unassigned code points are kept, as Hugging Face keeps them.
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isBertPunct mirrors BertPreTokenizer's punctuation test: ASCII punctuation
// (which includes symbols such as $ + < = > ^ ` | ~) or Unicode P*.
func isBertPunct(r rune) bool {
	if r < 128 {
		return (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126)
	}
	return unicode.IsPunct(r)
}

// isChineseChar is the CJK Unified Ideographs test of the original BERT code.
func isChineseChar(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B920 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}
