#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls made on file descriptors, named so that they resolve on Glibc (Linux) and
/// Darwin (macOS) alike.
///
/// Call these rather than the C functions qualified by their module (a call that names Glibc
/// does not build on macOS), or unqualified inside a type that declares a same-named method
/// (`close()`), where the method is found instead. The free functions below are outside any
/// type, so their unqualified calls reach the C library.
enum SystemCall {
    static func open(_ path: String, _ flags: Int32) -> Int32 {
        cOpen(path, flags)
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        cRead(descriptor, buffer, count)
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        cWrite(descriptor, buffer, count)
    }

    static func close(_ descriptor: Int32) -> Int32 {
        cClose(descriptor)
    }
}

private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, buffer, count) }
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
