//! Reads a printed QR code back, as a phone camera would (`rqrr`): the
//! HTTP tests and the browser tests share it.

/// The `<svg>` drawn by the `qrcode` crate as a bitmap: its path is a run of
/// `M{x} {y}h{w}v{h}…` squares, one per dark module.
pub fn rasterise(svg: &str) -> (usize, usize, Vec<bool>) {
    let attr = |name: &str| -> usize {
        let start = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[start..].split('"').next().unwrap().parse().unwrap()
    };
    let (w, h) = (attr("width"), attr("height"));
    let mut dark = vec![false; w * h];
    let d_start = svg.find(" d=\"").unwrap() + 4;
    let d = svg[d_start..].split('"').next().unwrap();
    for square in d.split('M').filter(|s| !s.is_empty()) {
        let nums: Vec<usize> = square
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let (x, y, sw, sh) = (nums[0], nums[1], nums[2], nums[3]);
        for yy in y..(y + sh).min(h) {
            for xx in x..(x + sw).min(w) {
                dark[yy * w + xx] = true;
            }
        }
    }
    (w, h, dark)
}

pub fn decode(svg: &str) -> String {
    let (w, h, dark) = rasterise(svg);
    let mut img =
        rqrr::PreparedImage::prepare_from_greyscale(
            w,
            h,
            |x, y| {
                if dark[y * w + x] {
                    0
                } else {
                    255
                }
            },
        );
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("the QR code reads").1
}
