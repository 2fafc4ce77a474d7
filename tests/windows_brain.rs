//! The Windows brain of the Gomocup submission (`gomocup/pack.sh`), read as a file: within Gomocup's
//! 8 MB, a console program (no window of its own), and importing Windows' own DLLs only, so that it
//! runs on a bare Windows 10 or 11. Needs the cross-built `.exe`: `QUINCUNX_WINDOWS_EXE=PATH cargo test
//! --release --test windows_brain -- --include-ignored` (CI runs it so); a plain `cargo test` reports it
//! as ignored.

/// DLLs every Windows 10 and 11 has (`api-ms-win-*` are Windows' API sets).
const WINDOWS_OWN: &[&str] = &[
    "kernel32.dll",
    "ntdll.dll",
    "msvcrt.dll",
    "bcryptprimitives.dll",
    "advapi32.dll",
    "ws2_32.dll",
    "userenv.dll",
];

/// Gomocup's limit on a submission, unless agreed otherwise.
const GOMOCUP_BYTES: u64 = 8 << 20;

/// The parts of a PE image this test reads.
struct Pe {
    subsystem: usize,
    imports: Vec<String>,
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

/// Reads the subsystem and the import directory's DLL names of a 64-bit PE file.
fn read_pe(b: &[u8]) -> Pe {
    assert_eq!(&b[..2], b"MZ", "not an executable");
    let pe = u32_at(b, 0x3c);
    assert_eq!(&b[pe..pe + 4], b"PE\0\0", "no PE header");
    let coff = pe + 4;
    let sections = u16_at(b, coff + 2);
    let optional = coff + 20;
    assert_eq!(u16_at(b, optional), 0x20b, "not PE32+ (64-bit)");
    let subsystem = u16_at(b, optional + 68);
    let import_rva = u32_at(b, optional + 112 + 8);
    let table = optional + u16_at(b, coff + 16);
    // A virtual address to its offset in the file, through the section that holds it.
    let offset = |rva: usize| -> usize {
        (0..sections)
            .map(|k| table + 40 * k)
            .find_map(|s| {
                let (va, size, raw) =
                    (u32_at(b, s + 12), u32_at(b, s + 8).max(u32_at(b, s + 16)), u32_at(b, s + 20));
                (va..va + size).contains(&rva).then(|| rva - va + raw)
            })
            .expect("an address inside a section")
    };
    let mut imports = vec![];
    let mut d = offset(import_rva);
    while u32_at(b, d + 12) != 0 {
        let name = offset(u32_at(b, d + 12));
        let end = name + b[name..].iter().position(|&c| c == 0).expect("a terminated name");
        imports.push(String::from_utf8_lossy(&b[name..end]).to_ascii_lowercase());
        d += 20;
    }
    Pe { subsystem, imports }
}

#[test]
#[ignore = "needs the cross-built brain: QUINCUNX_WINDOWS_EXE=PATH (gomocup/pack.sh builds it)"]
fn the_windows_brain_is_a_small_console_program_needing_only_windows_own_dlls() {
    let path = std::env::var("QUINCUNX_WINDOWS_EXE").expect("QUINCUNX_WINDOWS_EXE names the .exe");
    let bytes = std::fs::read(&path).expect("the .exe reads");
    assert!((bytes.len() as u64) < GOMOCUP_BYTES, "{} bytes: over Gomocup's 8 MB", bytes.len());
    let pe = read_pe(&bytes);
    assert_eq!(pe.subsystem, 3, "a console program (IMAGE_SUBSYSTEM_WINDOWS_CUI), no window of its own");
    assert!(pe.imports.iter().any(|d| d == "kernel32.dll"), "{:?}", pe.imports);
    for dll in &pe.imports {
        assert!(
            WINDOWS_OWN.contains(&dll.as_str()) || dll.starts_with("api-ms-win-"),
            "{dll} is not Windows' own: a bare Windows would refuse to start the brain ({:?})",
            pe.imports
        );
    }
}
