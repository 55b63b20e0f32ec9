/**
 * The DeepSeek-V4 prefill models' shapes, presets, inputs and plain-Java goldens.
 */
package dev.jpto.models.dsv4;
