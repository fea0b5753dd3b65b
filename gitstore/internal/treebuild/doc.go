// Package treebuild writes the trees of a new commit: a base tree with
// changed paths replaced (Builder.Build). Only the trees on the paths to
// the changes are read and written; every other subtree is reused by its
// id and never read. gitstore builds a checkpoint's trees and a merge's
// (Store.BuildTree) with it.
package treebuild
