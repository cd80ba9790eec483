// Package lessons holds the course as Markdown files (see README.md) and the
// tests that recompute every number the lessons quote, with the same code the
// widgets call, so that a changed default, seed or formula fails the build
// instead of silently making the prose wrong.
package lessons
