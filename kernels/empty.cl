// The launch floor of rgx-cli bench: a kernel that does nothing, so that
// enqueuing it costs exactly what any launch costs on the device (driver,
// queue and scheduling), with no work to hide it.
__kernel void empty(__global uint* unused)
{
}
