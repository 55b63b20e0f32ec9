package dev.jpto.runtime.device;

/**
 * The device cost of one executed tile op: {@code busyCycles} on {@code pipe}, after which its result is ready
 * {@code latencyCycles} later (a DMA's round trip; 0 for compute), and the GM bytes it moves.
 */
public record OpCost(Pipe pipe, long busyCycles, long latencyCycles, long gmBytes) {
}
