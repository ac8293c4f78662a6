function About() { return null; }
export default connect(mapState)(About);