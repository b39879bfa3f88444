// Package checklist tests the offline model's understanding the way
// CheckList does (Ribeiro et al., "Beyond Accuracy: Behavioral Testing
// of NLP Models with CheckList", ACL 2020): templates crossed with large
// vocabularies make thousands of cases, each testing one capability.
//
//   - minimum functionality (MFT): a simple case of one capability is read
//     right ("for twelve nights", "de 3 a 7 de maio", "uma dúzia de
//     amigos").
//   - invariance (INV): a change that should change nothing else does not
//     (another city, a misspelt city, accents stripped, chat words).
//   - directional (DIR): a correction changes only what it names ("a day
//     later" moves the dates, never the party or the place).
//
// Every number word from one to twenty, every month, weekday and
// holiday, in English and Portuguese, fills the slots; cities come from
// the gazetteer's public API, so a larger gazetteer brings more cases.
// TestCheckList prints the failure rate of each capability (go test -v)
// and fails when one is above 3%.
package checklist_test
